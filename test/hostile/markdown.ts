import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from '../helpers.js';

/**
 * Parser-free checks that a scorecard kept the template's shape whatever the target put in it:
 * the template's headings and table rows only, no raw HTML or javascript: links, no bidi controls,
 * and no line that opens a block (heading, list, quote, table row, fence) unless the template does.
 */

// eslint-disable-next-line no-control-regex
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Occurrences of `needle` not preceded by an odd number of backslashes (an escaped first character is literal). */
export function unescaped(md: string, needle: string): number {
  let n = 0;
  for (let i = md.indexOf(needle); i >= 0; i = md.indexOf(needle, i + 1)) {
    let slashes = 0;
    for (let j = i - 1; j >= 0 && md[j] === '\\'; j--) slashes++;
    if (slashes % 2 === 0) n++;
  }
  return n;
}

/** Headings the template writes (## level), from the template itself so the check follows it. */
function templateSections(): string[] {
  const t = readFileSync(join(ROOT, 'templates', 'scorecard.md.hbs'), 'utf8');
  return t.split('\n').filter((l) => /^## /.test(l));
}

export function expectUnbrokenScorecard(md: string, criteria = 10): void {
  const lines = md.split('\n');
  // Headings: one title, the template's sections, one per criterion.
  expect(lines.filter((l) => /^# /.test(l))).toHaveLength(1);
  expect(lines[0]).toMatch(/^# Defense-in-Depth Score: /);
  // The Tools section is the one the template writes only when the report has an agent model.
  const sections = templateSections().length - (lines.includes('## Tools') ? 0 : 1);
  expect(lines.filter((l) => /^## /.test(l))).toHaveLength(sections);
  expect(lines.filter((l) => /^### /.test(l))).toHaveLength(criteria);
  expect(lines.filter((l) => /^#/.test(l))).toHaveLength(1 + sections + criteria);
  // Tables: the criteria table (header, separator, one row per criterion, 11 unescaped pipes each)
  // and, in the Tools section, the tools table (5 pipes per row). Nothing from the target adds a row.
  const tables: string[][] = [];
  lines.forEach((l, i) => {
    if (!/^\s{0,3}\|/.test(l)) return;
    if (i > 0 && /^\s{0,3}\|/.test(lines[i - 1]!)) tables.at(-1)!.push(l);
    else tables.push([l]);
  });
  const tools = lines.indexOf('## Tools');
  expect(tables.length).toBe(tools >= 0 && lines.includes('| Tool | Defined at | Can reach | What stands in the way |') ? 2 : 1);
  expect(tables[0]).toHaveLength(2 + criteria);
  for (const r of tables[0]!) expect(unescaped(r, '|'), r).toBe(11);
  for (const r of tables[1] ?? []) expect(unescaped(r, '|'), r).toBe(5);
  if (tables[1]) expect(lines.indexOf(tables[1][0]!)).toBeGreaterThan(tools);
  // A table needs a delimiter row: only the template's may exist.
  expect(lines.filter((l) => /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$/.test(l))).toHaveLength(tables.length);
  // No raw HTML from the target: no script or media tags, and <details> only as balanced template markup.
  expect(md).not.toMatch(/<\s*\/?\s*(script|img|iframe|svg|style|a)\b/i);
  expect((md.match(/<\s*\/\s*details/gi) ?? []).length).toBe((md.match(/<\s*details/gi) ?? []).length);
  expect(md).not.toContain('<!--');
  for (const scheme of ['javascript:', 'data:', 'vbscript:']) expect(unescaped(md, `](${scheme}`)).toBe(0);
  expect(md).not.toMatch(BIDI);
  // eslint-disable-next-line no-control-regex
  expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029]/);
  expect(unescaped(md, '{{')).toBe(0);
  // Every line starts the way some template line does.
  for (const l of lines) {
    expect(l, JSON.stringify(l)).not.toMatch(/^\s{0,3}(>|<|```|~~~|={2,}\s*$|-{3,}\s*$|\*{3,}\s*$|_{3,}\s*$)/);
    expect(l, JSON.stringify(l)).not.toMatch(/^ {4,}\S/); // an indented code block
    if (/^\s*([-+*]|\d+[.)])\s/.test(l)) expect(l, JSON.stringify(l)).toMatch(/^(- |  - |\d+\. )/);
  }
}
