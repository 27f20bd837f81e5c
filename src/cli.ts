#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { InputError } from './acquire/types.js';
import { TOOL } from './audit.js';
import { registerChecklist } from './commands/checklist.js';
import { EXIT } from './commands/context.js';
import { registerDiff } from './commands/diff.js';
import { registerExplain } from './commands/explain.js';
import { registerRubricShow } from './commands/rubric-show.js';
import { registerBatch } from './commands/batch.js';
import { registerRules } from './commands/rules-test.js';
import { registerSchema } from './commands/schema.js';
import { registerScore } from './commands/score.js';
import { RubricError } from './rubric/load.js';

export { EXIT };

/** Each command lives in src/commands/ and registers itself here: the CLI is a thin shell over the stages. */
const COMMANDS = [registerBatch, registerScore, registerDiff, registerSchema, registerRules, registerExplain, registerRubricShow, registerChecklist];

function program(): Command {
  const cli = new Command('agent-audit')
    .description('Defense-in-depth audit for AI agent harnesses: static probes, ten criteria, evidence-linked scorecard.')
    .version(TOOL.version)
    .exitOverride()
    .configureOutput({ outputError: (s, write) => write(s.split('\n')[0] + '\n') });
  for (const register of COMMANDS) register(cli);
  return cli;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv, { from: 'user' });
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
