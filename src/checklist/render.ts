import { renderEvidence, verifiedMark } from '../render/markdown.js';
import { mdRubricText, mdText } from '../render/escape.js';
import type { Item } from './schema.js';

const MARK = { pass: '☑', fail: '✗', manual: '☐' } as const;

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
