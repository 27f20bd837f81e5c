/**
 * Everything that comes from the target (paths, matched code, descriptions) passes through these
 * before it reaches markdown, so a hostile repository cannot close a table, open a link or inject
 * HTML into the report.
 */

// Bidi controls and other invisible format characters can make a line read differently than it is.
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Inline markdown text: one line, every markdown and HTML metacharacter escaped. */
export function mdText(s: string): string {
  return s
    .replace(INVISIBLE, '')
    .replace(/\r?\n|\r/g, ' ')
    .replace(/[\\`*_{}[\]|~]/g, (c) => `\\${c}`)
    // '&' only matters where it would start an entity; '(' ')' '#' '!' cannot form syntax once '[' is escaped.
    .replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** An inline code span that cannot be closed early by backticks in the content. */
export function mdCode(s: string): string {
  const clean = s.replace(INVISIBLE, '').replace(/\r?\n|\r/g, ' ');
  const longest = Math.max(0, ...Array.from(clean.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') || clean === '' ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** A link destination: only http(s) or relative paths, with characters that end a destination encoded. */
export function mdUrl(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) && !/^https?:\/\//i.test(url)) return '#';
  return url.replace(INVISIBLE, '').replace(/[\s()<>\\[\]`|"']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function mdLink(text: string, url: string): string {
  return `[${mdText(text)}](${mdUrl(url)})`;
}
