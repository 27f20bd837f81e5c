// Builds small repositories shaped to make an audit do more work than their size suggests: what a
// hostile target could try. `npm run bench -- hostile` times a first audit of each. Cached under
// .cache/bench/hostile-<shape>/ (plain folders: the audit reads a folder as it is).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const AGENT = "import OpenAI from 'openai';\nimport { execSync } from 'node:child_process';\nconst c = new OpenAI();\nc.chat.completions.create({ model: 'x', messages: [] });\nexport function helper(cmd: string) { return execSync(cmd); }\n";
const PACKAGE = '{"name":"hostile","version":"1.0.0","dependencies":{"openai":"4.0.0","ai":"4.0.0"}}';

export const SHAPES = {
  // One expression of 160,000 chained `+` (320 KB): the parser nests it 160,000 deep.
  'operator chain': () => ({ 'deep.ts': `export const x = ${Array(160_000).fill('a').join('+')};\n` }),
  // 40,000 nested brackets (80 KB).
  'nested brackets': () => ({ 'deep.ts': `export const x = ${'['.repeat(40_000)}${']'.repeat(40_000)};\n` }),
  // 16,000 classes in 50 files, each with a `run` method calling `this.run` and `run`: every call's name has 16,000 definitions.
  'one name, 16,000 definitions': () =>
    Object.fromEntries(Array.from({ length: 50 }, (_, f) => [`m${f}.ts`, Array.from({ length: 320 }, (_, i) => `export class C${f}_${i} { run(x: string) { return this.run(x) + run(x); } }\nexport function run(x: string) { return x; }`).join('\n')])),
  // The same 16,000 methods called as `obj.run()` from 16,000 functions in other files.
  'one name, called from elsewhere': () => ({
    ...Object.fromEntries(Array.from({ length: 50 }, (_, f) => [`lib/m${f}.ts`, Array.from({ length: 320 }, (_, i) => `export class C${f}_${i} { run(x: string) { return x; } }`).join('\n')])),
    ...Object.fromEntries(Array.from({ length: 50 }, (_, f) => [`app/u${f}.ts`, Array.from({ length: 320 }, (_, i) => `export function u${f}_${i}(obj: { run(x: string): string }) { return obj.run('x'); }`).join('\n')])),
  }),
  // 16,000 tools in 20 files, each running a command through one helper.
  '16,000 tools': () =>
    Object.fromEntries(
      Array.from({ length: 20 }, (_, f) => [
        `tools${f}.ts`,
        "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { helper } from './agent';\n" + Array.from({ length: 800 }, (_, i) => `export const t${f}_${i} = tool({ description: 'run', parameters: z.object({ cmd: z.string() }), execute: async ({ cmd }) => helper(cmd) });`).join('\n'),
      ]),
    ),
};

/** The folder of one shape's repository, built on first use. */
export function hostileRepo(shape) {
  const dir = join(ROOT, '.cache', 'bench', `hostile-${shape.replace(/[^a-z0-9]+/gi, '-')}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { 'package.json': PACKAGE, 'agent.ts': AGENT, ...SHAPES[shape]() };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, '.complete'), '');
  return dir;
}
