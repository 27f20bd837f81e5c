import { renderEvidence } from '../render/markdown.js';
import { mdRubricText, mdText } from '../render/escape.js';
import type { Evidence } from '../report/schema.js';
import type { Item } from './schema.js';

const MARK = { pass: '☑', fail: '✗', manual: '☐' } as const;

export function verifiedMark(evidence: Evidence[]): string {
  if (evidence.length === 0) return '';
  const ok = evidence.filter((e) => e.verified).length;
  return ok === evidence.length ? ' (verified)' : ` (${ok} of ${evidence.length} verified)`;
}

/** One checklist item as markdown pieces: its mark, id, text and what decided it (or how a person checks it); item text and How are the rubric's, so their code spans render as code. */
export function itemLine(i: Item): { mark: string; id: string; text: string; detail: string } {
  const detail =
    i.status === 'manual'
      ? `*How:* ${mdRubricText(i.how ?? '')}`
      : i.evidence.length
        ? `${i.evidence.map(renderEvidence).join('; ')}${verifiedMark(i.evidence)}`
        : 'no file was in the scope of the probes it names, so nothing could be searched';
  return { mark: MARK[i.status], id: mdText(i.id), text: mdRubricText(i.text), detail };
}
