import type { Command } from 'commander';
import { reportJsonSchema } from '../report/schema.js';
import { writeOutput } from './output.js';

export function registerSchema(cli: Command): void {
  cli
    .command('schema')
    .description('print the JSON Schema of `score --format json`, generated from the report type')
    .option('--out <file>', 'write to this file instead of stdout')
    .action((flags: { out?: string }) => writeOutput(`${JSON.stringify(reportJsonSchema(), null, 2)}\n`, flags.out));
}
