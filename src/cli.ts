#!/usr/bin/env node
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { InputError } from './acquire/types.js';
import { TOOL } from './audit.js';
import { scoreCommand, FORMATS } from './commands/score.js';
import { rulesTestCommand } from './commands/rules-test.js';
import { writeOutput } from './commands/output.js';
import { reportJsonSchema } from './report/schema.js';
import { RubricError } from './rubric/load.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_RUBRIC = join(ROOT, 'rubrics', 'dids');

/** Exit codes: 0 done, 1 a gate or self-test failed, 2 bad input or usage, 3 an internal error. */
export const EXIT = { ok: 0, failed: 1, input: 2, internal: 3 } as const;

function program(): Command {
  const cli = new Command('audit')
    .description('Defense-in-depth audit for AI agent harnesses: static probes, ten criteria, evidence-linked scorecard.')
    .version(TOOL.version)
    .exitOverride()
    .configureOutput({ outputError: (s, write) => write(s.split('\n')[0] + '\n') });

  cli
    .command('score')
    .description('score a repository (owner/repo, a git URL, a local repository or a plain folder) at one commit')
    .argument('<repo>', 'owner/repo, https://github.com/owner/repo, any git URL, or a local path')
    .option('--commit <sha>', 'full or short commit id, tag or branch (default: HEAD)')
    .option('--cache-dir <dir>', 'where clones are kept and reused')
    .option('--rubric <dir>', 'rubric folder', DEFAULT_RUBRIC)
    .addOption(new Option('--format <format>', 'output format').choices([...FORMATS]).default('md'))
    .option('--out <file>', 'write the report to this file (atomically) instead of stdout')
    .option('--name <name>', 'name shown in the title')
    .option('--what <text>', "'What it is' line")
    .option('--category <text>', 'category line')
    .option('--configuration <text>', "'Scored configuration' line")
    .option('--reviewed <date>', "print a 'Reviewed' date (none by default: reports are byte-identical per commit)")
    .action(scoreCommand);

  cli
    .command('schema')
    .description('print the JSON Schema of `score --format json`, generated from the report type')
    .option('--out <file>', 'write to this file instead of stdout')
    .action((flags: { out?: string }) => writeOutput(`${JSON.stringify(reportJsonSchema(), null, 2)}\n`, flags.out));

  const rules = cli.command('rules').description('work with the rubric\'s probes');
  rules
    .command('test')
    .description("run every probe against its own match/noMatch snippets")
    .option('--rubric <dir>', 'rubric folder', DEFAULT_RUBRIC)
    .action(async (flags: { rubric: string }) => {
      process.exitCode = (await rulesTestCommand(flags.rubric)) ? EXIT.ok : EXIT.failed;
    });
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

if (process.argv[1] && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1])) {
  process.exitCode = await main(process.argv.slice(2));
}
