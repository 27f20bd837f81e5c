import type { Report } from '../report/schema.js';
import { showTotal } from '../score/arithmetic.js';

export const BADGE_LABEL = 'defense in depth';

/** shields.io's named colours, worst to best; a rubric's bands are spread over them in order. */
const PALETTE = ['#e05d44', '#fe7d37', '#dfb317', '#a4a61d', '#97ca00', '#4c1'] as const;
const UNKNOWN = '#9f9f9f';

/** Characters XML 1.0 does not allow even escaped, and lone surrogates. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlEscape(s: string): string {
  return s.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Colour of a band by its rank among the rubric's bands (lowest minimum first), so no band name is hard-coded. */
export function bandColour(band: string, bands: Array<{ name: string; min: number }>): string {
  const sorted = [...bands].sort((a, b) => a.min - b.min);
  const i = sorted.findIndex((b) => b.name === band);
  if (i < 0) return UNKNOWN;
  const last = PALETTE.length - 1;
  return PALETTE[sorted.length === 1 ? last : Math.round((i * last) / (sorted.length - 1))]!;
}

// Approximate advance widths of Verdana 11px in tenths of a pixel, as shields.io lays text out; integers keep the output deterministic.
const NARROW = new Set([...'ijlI.,:;!|\'']);
const SEMI = new Set([...' ftr()[]/-']);
const WIDE = new Set([...'mwMW@%']);
function textWidth(s: string): number {
  let w = 0;
  for (const c of s) w += NARROW.has(c) ? 30 : SEMI.has(c) ? 45 : WIDE.has(c) ? 100 : /[0-9]/.test(c) ? 70 : /[A-Z]/.test(c) ? 75 : 66;
  return w;
}

/** A flat shields.io-style badge: the total out of 10 and the band, coloured by band. */
export function renderBadge(report: Report, bands: Array<{ name: string; min: number }>): string {
  const label = BADGE_LABEL;
  const message = `${showTotal(report.totalNumerator, report.criteria[0]?.denominator ?? 40)} / 10 ${report.band}`;
  const colour = bandColour(report.band, bands);
  // Widths in tenths of a pixel: text plus 5px padding on each side.
  const lt = textWidth(label);
  const mt = textWidth(message);
  const lw = Math.ceil(lt / 10) + 10;
  const mw = Math.ceil(mt / 10) + 10;
  const w = lw + mw;
  const title = xmlEscape(`${label}: ${message}`);
  const l = xmlEscape(label);
  const m = xmlEscape(message);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`,
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${colour}"/><rect width="${w}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">`,
    `<text aria-hidden="true" x="${lw * 5}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${lt}">${l}</text>`,
    `<text x="${lw * 5}" y="140" transform="scale(.1)" fill="#fff" textLength="${lt}">${l}</text>`,
    `<text aria-hidden="true" x="${lw * 10 + mw * 5}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${mt}">${m}</text>`,
    `<text x="${lw * 10 + mw * 5}" y="140" transform="scale(.1)" fill="#fff" textLength="${mt}">${m}</text>`,
    `</g></svg>`,
    '',
  ].join('\n');
}
