import { describe, expect, it } from 'vitest';
import { bandColour, renderBadge, xmlEscape } from '../src/render/badge.js';
import type { Report } from '../src/report/schema.js';
import { loadRubric } from '../src/rubric/load.js';
import { cli, RUBRIC } from './helpers.js';

const bands = loadRubric(RUBRIC).file.bands;

/** Only what the badge reads from a report. */
function report(totalNumerator: number, band: string): Report {
  return { totalNumerator, band, criteria: [{ denominator: 40 }] } as unknown as Report;
}

/** Text between tags must hold no raw markup; attribute values no raw quote, '<' or stray '&'. */
function wellFormedText(svg: string): void {
  for (const [, text] of svg.matchAll(/>([^<]*)</g)) expect(text).not.toMatch(/[<>"]|&(?!#\d+;|amp;|lt;|gt;|quot;)/);
  for (const [, value] of svg.matchAll(/="([^"]*)"/g)) expect(value).not.toMatch(/[<>]|&(?!#\d+;)/);
}

describe('score badge', () => {
  it('shows the total and the band, coloured by the band', () => {
    const svg = renderBadge(report(189, 'Minimal'), bands);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20" role="img" aria-label="defense in depth: 4\.7 \/ 10 Minimal">/);
    expect(svg).toContain('<title>defense in depth: 4.7 / 10 Minimal</title>');
    expect(svg).toContain('fill="#dfb317"');
    expect(svg.match(/>4\.7 \/ 10 Minimal</g)).toHaveLength(2); // text and its shadow
    wellFormedText(svg);
  });

  it('colours bands by their rank in the rubric, worst red to best bright green', () => {
    expect(bands.map((b) => bandColour(b.name, bands))).toEqual(['#e05d44', '#fe7d37', '#dfb317', '#a4a61d', '#97ca00', '#4c1']);
    const three = [{ name: 'low', min: 0 }, { name: 'high', min: 7 }, { name: 'mid', min: 3 }];
    expect(['low', 'mid', 'high'].map((b) => bandColour(b, three))).toEqual(['#e05d44', '#a4a61d', '#4c1']);
    expect(bandColour('Unknown', bands)).toBe('#9f9f9f');
  });

  it('escapes all text for XML, a hostile band name included', () => {
    expect(xmlEscape(`<a href="x">&'\u0001`)).toBe('&#60;a href=&#34;x&#34;&#62;&#38;&#39;');
    const svg = renderBadge(report(0, '</text><script>alert("x")</script>&'), [{ name: '</text><script>alert("x")</script>&', min: 0 }]);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('0.0 / 10 &#60;/text&#62;&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;');
    wellFormedText(svg);
  });

  it('is deterministic, and wider for a longer message', () => {
    const a = renderBadge(report(189, 'Minimal'), bands);
    expect(renderBadge(report(189, 'Minimal'), bands)).toBe(a);
    const width = (s: string) => Number(/width="(\d+)"/.exec(s)![1]);
    expect(width(renderBadge(report(380, 'Exemplary'), bands))).toBeGreaterThan(width(renderBadge(report(80, 'Weak'), bands)));
  });

  it('is written by score --format badge', async () => {
    // The CLI run in this process (see `cli` in helpers.ts).
    const r = await cli(['score', 'fixtures/desktop-chat', '--format', 'badge']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^<svg [^>]*aria-label="defense in depth: 4\.7 \/ 10 Minimal">/);
    expect(r.stdout.endsWith('</g></svg>\n')).toBe(true);
    // Same content as the library renders: the CLI adds nothing of its own.
    expect(r.stdout).toBe(renderBadge(report(189, 'Minimal'), bands));
  });
});
