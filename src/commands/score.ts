import { audit, type AuditOptions } from '../audit.js';
import { renderMarkdown } from '../render/markdown.js';
import { InputError } from '../acquire/types.js';
import { writeOutput } from './output.js';

export interface ScoreFlags {
  commit?: string;
  cacheDir?: string;
  rubric: string;
  format: string;
  out?: string;
  name?: string;
  what?: string;
  category?: string;
  configuration?: string;
  reviewed?: string;
}

export const FORMATS = ['md', 'json'] as const;

export async function scoreCommand(target: string, flags: ScoreFlags): Promise<void> {
  if (!(FORMATS as readonly string[]).includes(flags.format)) throw new InputError(`unknown format '${flags.format}' (expected one of: ${FORMATS.join(', ')})`);
  const opts: AuditOptions = { rubricDir: flags.rubric };
  if (flags.commit !== undefined) opts.commit = flags.commit;
  if (flags.cacheDir !== undefined) opts.cacheDir = flags.cacheDir;
  if (flags.name !== undefined) opts.name = flags.name;
  if (flags.what !== undefined) opts.whatItIs = flags.what;
  if (flags.category !== undefined) opts.category = flags.category;
  if (flags.configuration !== undefined) opts.scoredConfiguration = flags.configuration;
  const report = await audit(target, opts);
  const text = flags.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderMarkdown(report, flags.reviewed ? { reviewed: flags.reviewed } : {});
  writeOutput(text, flags.out);
}
