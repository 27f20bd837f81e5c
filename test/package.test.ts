import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const COMMANDS = join(ROOT, 'src', 'commands');

/** The sibling modules a file in src/commands imports ('./x.js' → 'x'). */
function siblingImports(file: string): string[] {
  const text = readFileSync(join(COMMANDS, file), 'utf8');
  return [...text.matchAll(/^import[^;]*?from '\.\/([\w-]+)\.js'/gm)].map((m) => m[1]!);
}

describe('module layout', () => {
  it('no command imports another command: shared logic lives in library modules', () => {
    const files = readdirSync(COMMANDS).filter((f) => f.endsWith('.ts'));
    // A command module is one that registers a command with the CLI.
    const commands = new Set(files.filter((f) => /^export function register\w+\(cli: Command\)/m.test(readFileSync(join(COMMANDS, f), 'utf8'))).map((f) => f.replace(/\.ts$/, '')));
    expect(commands.size).toBeGreaterThanOrEqual(8);
    const crossings = files.flatMap((f) => siblingImports(f).filter((s) => commands.has(s)).map((s) => `${f} imports ${s}.ts`));
    expect(crossings).toEqual([]);
  });
});
