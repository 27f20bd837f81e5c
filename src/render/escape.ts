/**
 * Everything that comes from the target (paths, matched code, descriptions) passes through these
 * before it reaches markdown, so a hostile repository cannot close a table, open a link, start a
 * heading or list, inject HTML or reorder what a reader sees.
 */

// Bidi controls and other invisible format characters can make a line read differently than it is:
// C0/C1 controls, zero-width and direction marks (U+200B-U+200F, U+061C, U+180E), embeddings and
// overrides (U+202A-U+202E), invisible operators (U+2060-U+2064), isolates (U+2066-U+2069),
// deprecated format characters (U+206A-U+206F), BOM and interlinear annotation marks.
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
// Everything a renderer may take as the end of a line; the value must stay on the template's line.
const NEWLINE = /\r\n|[\n\r\u0085\u2028\u2029]/g;

/** Inline markdown text: one line, every markdown and HTML metacharacter escaped. */
export function mdText(s: string): string {
  return (
    s
      .replace(INVISIBLE, '')
      .replace(NEWLINE, ' ')
      .replace(/[\\`*_{}[\]|~$]/g, (c) => `\\${c}`)
      // '&' only matters where it would start an entity; '(' ')' '!' cannot form syntax once '[' is escaped.
      .replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      // Where a template puts the value at the start of a line, it must not open a block: an ATX
      // heading, a list item, a thematic break or a setext underline ('*', '_', '>', '<', '|' and
      // fences are escaped above).
      .replace(/^(\s*)(#{1,6}(?=\s|$)|[-+](?=\s|$)|-(?=-)|=|\d{1,9}[.)](?=\s|$))/, (_m, sp: string, mark: string) =>
        /^\d/.test(mark) ? `${sp}${mark.slice(0, -1)}\\${mark.slice(-1)}` : `${sp}\\${mark}`,
      )
  );
}

/** An inline code span that cannot be closed early by backticks in the content. */
export function mdCode(s: string): string {
  const clean = s.replace(INVISIBLE, '').replace(NEWLINE, ' ');
  const longest = Math.max(0, ...Array.from(clean.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') || clean === '' ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/**
 * A link destination: http(s) URLs, or paths relative to the report. Anything else that looks
 * like a scheme (`javascript:`, `data:`) or a host (`//evil.example`) is made a relative path
 * with `./`, and characters that would end the destination (or are not allowed in a URL) are percent-encoded.
 */
export function mdUrl(url: string): string {
  const clean = url.replace(INVISIBLE, '');
  const relative = /^https?:\/\//i.test(clean) ? clean : /^[a-z][a-z0-9+.-]*:|^[/\\]{2}/i.test(clean) ? `./${clean}` : clean;
  return relative.replace(/[\s()<>\\[\]{}`|"'\u0085]/g, percentEncoded);
}

/** One character percent-encoded, as in a URL (`<` → `%3C`). */
export function percentEncoded(c: string): string {
  return c.charCodeAt(0) < 0x80 ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(c);
}

export function mdLink(text: string, url: string): string {
  return `[${mdText(text)}](${mdUrl(url)})`;
}

/**
 * Text the rubric itself wrote (never the target's): its `code spans` render as code, everything
 * else is escaped like mdText. A span is a run of backticks closed by a run of the same length, as
 * in CommonMark; an unclosed run stays literal (escaped) text.
 */
export function mdRubricText(s: string): string {
  let out = '';
  let from = 0;
  const runs = /`+/g;
  for (let open = runs.exec(s); open; open = runs.exec(s)) {
    const fence = open[0];
    const close = new RegExp(`(?<!\`)${fence}(?!\`)`, 'g');
    close.lastIndex = open.index + fence.length;
    const end = close.exec(s);
    if (!end) continue;
    out += mdText(s.slice(from, open.index)) + mdCode(s.slice(open.index + fence.length, end.index).trim());
    from = end.index + fence.length;
    runs.lastIndex = from;
  }
  return out + mdText(s.slice(from));
}
