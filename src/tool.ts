import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** The tool's name and version, as every report records them. */
export const TOOL = { name: pkg.name, version: pkg.version };
