/**
 * Markdown → sentences with their line numbers, deterministically and without a markdown parser:
 * a claim is usually one sentence of a paragraph, one bullet, one table row or one line of a code
 * block listing flags, so those are the units, and a unit splits into sentences at . ! ? followed
 * by a capital. Headings are not claims; they name the section each sentence belongs to.
 */

export interface Heading {
  text: string;
  line: number;
  /** 1–6 for # headings (setext = 1 or 2); 7 for a line that is bold text only. */
  level: number;
}

export interface Sentence {
  text: string;
  /** 1-based line where the sentence starts. */
  line: number;
  /** The enclosing headings, outermost first. */
  sections: Heading[];
}

/** Longest sentence kept: past this a "sentence" is not prose, and regexes stay cheap. */
export const MAX_SENTENCE = 600;

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ATX = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BOLD_LINE = /^\s*(\*\*|__)([^*_]+?)\1\s*:?\s*$/;
const SETEXT = /^\s{0,3}(=+|-+)\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const BULLET = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;
const QUOTE = /^\s*(?:>\s?)+/;
// A sentence ends at . ! ? (plus closing quotes, brackets or emphasis) followed by space and a capital-ish start.
const SENTENCE_END = /[.!?]["'”’)\]*_`]*\s+(?=["'“‘(*_`[<]?[A-Z0-9]|--[a-z])/g;
const ABBREVIATION = /\b(e\.g|i\.e|etc|vs|cf|approx|incl|no)\.["'”’)\]*_`]*\s+$/i;

interface Unit {
  parts: Array<{ text: string; line: number }>;
  bullet?: boolean;
}

function tableCells(line: string): string {
  const inner = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return inner
    .split(/(?<!\\)\|/)
    .map((c) => c.trim())
    .filter((c) => c !== '')
    .join(' | ');
}

function sentencesOfUnit(unit: Unit, sections: Heading[]): Sentence[] {
  let text = '';
  const starts: Array<{ offset: number; line: number }> = [];
  for (const p of unit.parts) {
    if (text) text += ' ';
    starts.push({ offset: text.length, line: p.line });
    text += p.text.trim();
  }
  const lineAt = (offset: number) => {
    let line = starts[0]!.line;
    for (const s of starts) if (s.offset <= offset) line = s.line;
    return line;
  };
  const out: Sentence[] = [];
  let from = 0;
  const push = (to: number) => {
    const raw = text.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    const s = raw.replace(/\s+/g, ' ').trim();
    if (s) out.push({ text: s.length > MAX_SENTENCE ? `${s.slice(0, MAX_SENTENCE - 1)}…` : s, line: lineAt(from + lead), sections });
  };
  for (const m of text.matchAll(SENTENCE_END)) {
    const end = m.index + m[0].length;
    if (ABBREVIATION.test(text.slice(Math.max(from, m.index - 8), end))) continue;
    push(end);
    from = end;
  }
  push(text.length);
  return out;
}

/** Every sentence of a markdown document, in document order, with the headings above it. */
export function sentencesOf(markdown: string): { sentences: Sentence[]; headings: Heading[] } {
  const lines = markdown.split(/\r\n|\r|\n/);
  const sentences: Sentence[] = [];
  const headings: Heading[] = [];
  let stack: Heading[] = [];
  let unit: Unit | null = null;
  let fence: string | null = null;

  const flush = () => {
    if (unit && unit.parts.length) sentences.push(...sentencesOfUnit(unit, stack));
    unit = null;
  };
  const heading = (text: string, line: number, level: number) => {
    const h = { text: text.trim(), line, level };
    headings.push(h);
    stack = [...stack.filter((s) => s.level < level), h];
  };

  lines.forEach((raw, i) => {
    const n = i + 1;
    const fenceMatch = FENCE.exec(raw);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence[0]!) && fenceMatch[1]!.length >= fence.length) fence = null;
      // A line of a code block (a flag with its comment, a config key) is a unit of its own.
      else if (raw.trim()) sentences.push({ text: raw.replace(/\s+/g, ' ').trim().slice(0, MAX_SENTENCE), line: n, sections: stack });
      return;
    }
    if (fenceMatch) {
      flush();
      fence = fenceMatch[1]!;
      return;
    }
    const line = raw.replace(QUOTE, '');
    if (!line.trim()) return flush();
    const atx = ATX.exec(line);
    if (atx) {
      flush();
      return heading(atx[2]!, n, atx[1]!.length);
    }
    const bold = BOLD_LINE.exec(line);
    if (bold) {
      flush();
      return heading(bold[2]!, n, 7);
    }
    const setext = SETEXT.exec(line);
    if (setext) {
      const current = unit as Unit | null;
      // "Title\n=====" is a heading; a lone "---" is a rule.
      if (current && current.parts.length === 1 && !current.bullet) {
        const title = current.parts[0]!;
        unit = null;
        return heading(title.text, title.line, setext[1]!.startsWith('=') ? 1 : 2);
      }
      return flush();
    }
    if (TABLE_SEPARATOR.test(line) && line.includes('|')) return;
    if (line.trimStart().startsWith('|')) {
      flush();
      const row = tableCells(line);
      if (row) sentences.push(...sentencesOfUnit({ parts: [{ text: row, line: n }] }, stack));
      return;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      flush();
      unit = { parts: [{ text: bullet[1]!, line: n }], bullet: true };
      return;
    }
    unit ??= { parts: [] };
    unit.parts.push({ text: line, line: n });
  });
  flush();
  return { sentences, headings };
}
