import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../src/audit.js';
import { DEFAULT_CATEGORY, DEFAULT_CONFIGURATION, firstProseSentence } from '../src/inventory/metadata.js';
import { renderMarkdown } from '../src/render/markdown.js';
import type { Report } from '../src/report/schema.js';
import { fixtureRepo, git, RUBRIC } from './helpers.js';

const levelsOf = (r: Report) => r.criteria.map((c) => `${c.id}:${Object.values(c.levels).join('')}`).join(' ');

describe("the target's .audit.yaml", () => {
  let withClaims: Report;
  let without: Report;
  beforeAll(async () => {
    withClaims = await audit(fixtureRepo('meta-agent').dir, { rubricDir: RUBRIC });
    const bare = fixtureRepo('meta-agent').dir;
    rmSync(join(bare, '.audit.yaml'));
    git(bare, 'commit', '-q', '-am', 'drop .audit.yaml');
    without = await audit(bare, { rubricDir: RUBRIC });
  });

  it('describes the target: name, what it is, category, scored configuration and surfaces', () => {
    expect(withClaims.target).toMatchObject({
      name: 'Meta Agent',
      whatItIs: 'A terminal agent | that runs [shell](javascript:alert(1)) commands <b>for you</b>',
      category: 'Coding agent (CLI)',
      scoredConfiguration: 'meta-agent 0.1 from npm, default settings',
      surfacesScored: ['CLI', 'local HTTP API'],
    });
  });

  it('never sets a level, a surface or a Rule-of-Two leg, and says it tried', () => {
    expect(levelsOf(withClaims)).toBe(levelsOf(without));
    expect(withClaims.totalNumerator).toBe(without.totalNumerator);
    expect(withClaims.ruleOfTwo).toEqual(without.ruleOfTwo);
    const c4 = withClaims.criteria.find((c) => c.id === 'C4')!;
    expect(c4.dimensions.S).toMatchObject({ level: 0, source: 'automated' });
    expect(c4.dimensions.S.reviewer).toBeUndefined();
    expect(withClaims.limitations).toContain(
      "The target's .audit.yaml tried to set levels or results (C4, levels, ruleOfTwo); those keys were ignored: a target may describe itself but never score itself.",
    );
    expect(withClaims.limitations).toContain("The target's .audit.yaml has keys the tool does not use (homepage), or text keys that are not text; they were ignored.");
    expect(without.limitations.join('\n')).not.toMatch(/audit\.yaml/);
  });

  it('is escaped in the markdown like everything else from the target', () => {
    const md = renderMarkdown(withClaims);
    expect(md).toContain('# Defense-in-Depth Score: Meta Agent\n');
    expect(md).toContain('**What it is:** A terminal agent \\| that runs \\[shell\\](javascript:alert(1)) commands &lt;b&gt;for you&lt;/b&gt;\n');
    expect(md).toContain('**Surfaces scored:** CLI, local HTTP API\n');
    expect(md).not.toContain('<b>');
  });

  it('falls back to defaults derived from the package metadata when absent', () => {
    expect(without.target).toMatchObject({
      name: 'meta-agent',
      whatItIs: 'Tiny terminal agent that runs shell commands the model asks for',
      category: DEFAULT_CATEGORY,
      scoredConfiguration: DEFAULT_CONFIGURATION,
    });
    expect(without.target.surfacesScored).toBeUndefined();
    expect(renderMarkdown(without)).not.toContain('Surfaces scored');
  });

  it('loses to flags, and to a reviewer overrides file, field by field', async () => {
    const { dir } = fixtureRepo('meta-agent');
    const overrides = join(dir, '..', 'review.yaml');
    writeFileSync(overrides, 'category: Coding agent (reviewer)\nscoredConfiguration: Reviewer configuration\n');
    const r = await audit(dir, { rubricDir: RUBRIC, name: 'Flag Name', scoredConfiguration: 'Flag configuration', overrides });
    expect(r.target).toMatchObject({
      name: 'Flag Name',
      whatItIs: 'A terminal agent | that runs [shell](javascript:alert(1)) commands <b>for you</b>',
      category: 'Coding agent (reviewer)',
      scoredConfiguration: 'Flag configuration',
    });
  });

  it('is ignored, with a note, when it is not a YAML mapping', async () => {
    const { dir } = fixtureRepo('meta-agent');
    writeFileSync(join(dir, '.audit.yaml'), 'name: [unclosed\n');
    git(dir, 'commit', '-q', '-am', 'break .audit.yaml');
    const r = await audit(dir, { rubricDir: RUBRIC });
    expect(r.target.name).toBe('meta-agent');
    expect(r.limitations).toContain("The target's .audit.yaml is not a YAML mapping and was ignored.");
  });
});

describe("'What it is' from a README", () => {
  it.each([
    ['a centred HTML tagline after the logo', '# Tool\n\n<p align="center">\n  <a href="x"><img src="logo.png" alt="Logo"></a>\n</p>\n\n<p align="center">Your new coding helper, now in your terminal.<br />More text.</p>\n\n## Install\n\nThe tool is available via a package manager near you.', 'Your new coding helper, now in your terminal.'],
    ['a badge line, then prose', '[![ci](b.svg)](x)\n\nAgent harness that runs tools on your behalf. More.', 'Agent harness that runs tools on your behalf.'],
    ['an emoji greeting, then prose', '👋 Welcome!\n\nA terminal agent that edits code in your repository.', 'A terminal agent that edits code in your repository.'],
  ])('%s', (_name, readme, expected) => {
    expect(firstProseSentence(readme)).toBe(expected);
  });
  it('finds nothing in a README of images and links only', () => {
    expect(firstProseSentence('<p align="center"><a href="x"><img src="y" alt="A very long alt text here"></a></p>\n\n[Docs](d) · [Site](s)')).toBeNull();
  });
});
