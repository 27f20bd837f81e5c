import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { name: string; version: string };
/** The tool's name and version, as every report records them. */
export const TOOL = { name: pkg.name, version: pkg.version };
