import { describe, expect, it } from 'vitest';
import { lineStartsOf, lineText, sourceText } from '../src/inventory/lines.js';

describe('a file read as text', () => {
  it('reads CRLF line ends as plain ones and drops a byte-order mark, keeping every line where it was', () => {
    const raw = Buffer.from('\ufefffrom pkg import run\r\n\r\nrun(code)\r\n', 'utf8');
    const text = sourceText(raw);
    expect(text).toBe('from pkg import run\n\nrun(code)\n');
    const file = { text, lineStarts: lineStartsOf(text) };
    expect([1, 2, 3].map((n) => lineText(file, n))).toEqual(['from pkg import run', '', 'run(code)']);
  });

  it('leaves a lone carriage return inside a line alone', () => {
    expect(sourceText(Buffer.from('print("a\\rb")\n', 'utf8'))).toBe('print("a\\rb")\n');
    expect(sourceText(Buffer.from('x = "\r"\n', 'utf8'))).toBe('x = "\r"\n');
  });
});
