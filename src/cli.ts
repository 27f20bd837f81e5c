#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { InputError } from './acquire/types.js';
import { TOOL } from './tool.js';
import { EXIT } from './commands/context.js';
import { RubricError } from './rubric/error.js';

export { EXIT };

type Register = (cli: Command) => void;

/**
 * Each command lives in src/commands/ and registers itself here: the CLI is a thin shell over the
 * stages. Only the command being run is loaded (a report answered from the cache must not wait for
 * every other command's modules); help, a version query or an unknown command loads them all.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  batch: async () => (await import('./commands/batch.js')).registerBatch,
  score: async () => (await import('./commands/score.js')).registerScore,
  diff: async () => (await import('./commands/diff.js')).registerDiff,
  schema: async () => (await import('./commands/schema.js')).registerSchema,
  rules: async () => (await import('./commands/rules-test.js')).registerRules,
  explain: async () => (await import('./commands/explain.js')).registerExplain,
  rubric: async () => (await import('./commands/rubric-show.js')).registerRubricShow,
  checklist: async () => (await import('./commands/checklist.js')).registerChecklist,
};

async function program(argv: string[]): Promise<Command> {
  const cli = new Command('agent-audit')
    .description('Defense-in-depth audit for AI agent harnesses: static probes, ten criteria, evidence-linked scorecard.')
    .version(TOOL.version)
    .exitOverride()
    .configureOutput({ outputError: (s, write) => write(s.split('\n')[0] + '\n') });
  const first = argv.find((a) => !a.startsWith('-'));
  const wanted = first !== undefined && Object.hasOwn(COMMANDS, first) && !argv.includes('--help') && !argv.includes('-h') ? [first] : Object.keys(COMMANDS);
  for (const name of wanted) (await COMMANDS[name]!())(cli);
  return cli;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await (await program(argv)).parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.input;
    if (e instanceof InputError || e instanceof RubricError) {
      process.stderr.write(`audit: ${e.message.split('\n')[0]}\n`);
      return EXIT.input;
    }
    const err = e as Error;
    process.stderr.write(`audit: internal error: ${String(err?.message ?? e).split('\n')[0]}${process.env['AUDIT_DEBUG'] ? `\n${err?.stack}` : ' (set AUDIT_DEBUG=1 for details)'}\n`);
    return EXIT.internal;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  // A reader that stops early (`| head`) closes the pipe: that ends the output, it is not a crash.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
      throw e;
    });
  }
  process.exitCode = await main(process.argv.slice(2));
}
