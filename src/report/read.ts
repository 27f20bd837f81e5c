import { readFileSync } from 'node:fs';
import { InputError } from '../acquire/types.js';
import { reportSchema, type Report } from './schema.js';

const EXPECTED = 'expected a report written by `agent-audit score --format json`';

/** Reads a saved report; a missing, unreadable or malformed file is bad input, named with what was expected. */
export function readReport(file: string): Report {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read report ${file}: ${(e as NodeJS.ErrnoException).code ?? 'error'} (${EXPECTED})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new InputError(`${file}: not JSON (${EXPECTED})`);
  }
  const parsed = reportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(`${file}: not a valid report: at ${issue.path.length ? issue.path.join('.') : '(top level)'}: ${issue.message} (${EXPECTED})`);
  }
  return parsed.data;
}

/** The same, for callers to whom a missing or invalid report just means "none yet" (batch resumption, merge). */
export function readReportOrNull(file: string): Report | null {
  try {
    return readReport(file);
  } catch {
    return null;
  }
}
