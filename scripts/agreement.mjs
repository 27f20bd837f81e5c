#!/usr/bin/env node
// Agreement between the tool's levels and independent reference reviews.
//
//   node scripts/agreement.mjs --repos DIR --reviews test/validation/tenth [--cli "node dist/cli.js"]
//   node scripts/agreement.mjs --report REPORT.json --reference crush.json
//
// The team's calibration script, with --reviews: the folder holding the reference reviews
// (NAME.json) and their targets.tsv (name, repo, commit), such as a held-out set kept in
// test/validation/. With --targets, another list of targets, whose names may lead into sets
// (`tenth/serena`): `--reviews test/validation --targets test/validation/untouched.tsv` scores
// every held-out agent no change was ever made or checked against, pooled.
//
// --reports DIR: instead of running the tool, read each target's levels from DIR/NAME.json (NAME
//   the last segment of the target's name), and compare them with the review the targets file's
//   fourth column names (else --reviews' NAME.json): two reviewers compared with the same
//   arithmetic as the tool (`--reviews test/validation/second --reports test/validation/second`).
// --repos DIR: a folder holding one git repository (bare mirror or clone) per target, named
//   owner+name (e.g. DIR/charmbracelet+crush, or DIR/charmbracelet+crush/repo). Each target is
//   scored at the commit its reference review pins. Run from the project root, after a build.
// Prints, per target and in total: exact level agreement, within one level, |Δtotal|, the
// Pearson r of per-criterion raw scores, the Spearman ρ of totals, and each disagreeing level
// as `C4.S tool/reference`. Exit 0 always: it measures, it does not gate.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const DIMS = ['S', 'C', 'D', 'B'];

function levelsOf(doc) {
  if (doc.levels && !Array.isArray(doc.levels)) return doc.levels;
  const out = {};
  for (const c of doc.criteria ?? []) {
    const lv = c.levels ?? c.dimensions ?? {};
    out[c.id] = Object.fromEntries(DIMS.map((d) => [d, typeof lv[d] === 'object' && lv[d] !== null ? lv[d].level : lv[d]]));
  }
  return out;
}
const raw = (l) => (3 * l.S + 3 * l.C + 2 * l.D + 2 * l.B) / 40;

function compare(report, reference) {
  const got = levelsOf(report), want = levelsOf(reference);
  let exact = 0, near = 0, n = 0; const misses = [], pairs = [];
  for (const [cid, dims] of Object.entries(want)) {
    const g = got[cid] ?? {};
    for (const d of DIMS) {
      n++;
      if (g[d] === dims[d]) exact++; else misses.push(`${cid}.${d} ${g[d]}/${dims[d]}`);
      if (Number.isInteger(g[d]) && Math.abs(g[d] - dims[d]) <= 1) near++;
    }
    if (DIMS.every((d) => Number.isInteger(g[d]))) pairs.push([raw(g), raw(dims)]);
  }
  const capsOf = (doc) => doc.criteria ? doc.criteria.filter((c) => c.cap != null).map((c) => c.id) : Object.keys(doc.caps ?? {});
  const caps = capsOf(report), refCaps = capsOf(reference);
  // The Rule of Two and the agent surface, where both documents carry them (the reviews' JSON names them in snake case).
  const r2 = reference.rule_of_two && report.ruleOfTwo
    ? { legs: ['A', 'B', 'C'].filter((k) => report.ruleOfTwo[k].holds === reference.rule_of_two[k]).length, same: report.ruleOfTwo.sameDefaultSession === reference.rule_of_two.same_default_session }
    : null;
  const surface = reference.agent_surface && report.surface
    ? report.surface.filter((p) => String(reference.agent_surface[p.id.replace(/-/g, '_')]) === p.value).length
    : null;
  return { exact, near, n, pairs, misses, caps, refCaps, total: Number(report.total), refTotal: Number(reference.total), r2, surface };
}

function pearson(xs, ys) {
  const m = (v) => v.reduce((a, b) => a + b, 0) / v.length;
  if (xs.length < 3) return NaN;
  const mx = m(xs), my = m(ys);
  const sx = Math.sqrt(m(xs.map((x) => (x - mx) ** 2))), sy = Math.sqrt(m(ys.map((y) => (y - my) ** 2)));
  if (!sx || !sy) return NaN;
  return m(xs.map((x, i) => (x - mx) * (ys[i] - my))) / (sx * sy);
}
const ranks = (v) => v.map((x) => v.filter((y) => y < x).length + (v.filter((y) => y === x).length - 1) / 2);

function line(name, r) {
  return `${name.padEnd(18)} exact ${r.exact}/${r.n}  within-1 ${r.near}/${r.n}  total ${r.total.toFixed(2)} vs ${r.refTotal}  |Δ| ${Math.abs(r.total - r.refTotal).toFixed(2)}  caps [${r.caps}] vs [${r.refCaps}]\n    differs: ${r.misses.join(' ') || 'none'}`;
}

if (opt('--report')) {
  const r = compare(JSON.parse(readFileSync(opt('--report'), 'utf8')), JSON.parse(readFileSync(opt('--reference'), 'utf8')));
  console.log(line('report', r));
  process.exit(0);
}

const reposDir = opt('--repos');
if (!reposDir && !opt('--reports')) { console.error('usage: agreement.mjs --repos DIR | --reports DIR | --report R.json --reference REF.json'); process.exit(2); }
const reviews = opt('--reviews', join(here, '..', 'test', 'validation', 'tenth'));
const targets = readFileSync(opt('--targets', join(reviews, 'targets.tsv')), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => l.split('\t'));
const cli = opt('--cli', 'node dist/cli.js').split(' ');
const reportsDir = opt('--reports');
const rows = [];
for (const [name, repo, commit, firstReview] of targets) {
  // Two reviewers (--reports): the review in --reports against the one the fourth column names
  // (the first review of the same target, from the project root), else the same name under --reviews.
  const reference = JSON.parse(readFileSync(reportsDir && firstReview ? firstReview : join(reviews, `${name}.json`), 'utf8'));
  let report;
  if (reportsDir) {
    const file = join(reportsDir, `${name.split('/').pop()}.json`);
    // A target the tool refused (no sign of an agent harness) leaves no report, or an empty one.
    if (!existsSync(file) || statSync(file).size === 0) { console.log(`${name.padEnd(18)} no report in ${reportsDir}`); continue; }
    report = JSON.parse(readFileSync(file, 'utf8'));
  } else {
    const base = join(reposDir, repo.replace('/', '+'));
    const path = [join(base, 'repo'), base].find((p) => existsSync(p));
    if (!path) { console.log(`${name.padEnd(18)} missing: no ${base} (fetch github:${repo})`); continue; }
    try {
      report = JSON.parse(execFileSync(cli[0], [...cli.slice(1), 'score', path, '--commit', commit, '--format', 'json', '--quiet', '--no-result-cache'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    } catch (e) { console.log(`${name.padEnd(18)} FAILED: ${String(e.stderr ?? e.message).trim().split('\n').pop()}`); continue; }
  }
  const r = compare(report, reference);
  rows.push(r); console.log(line(name, r));
}
if (rows.length) {
  const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
  const pairs = rows.flatMap((r) => r.pairs);
  const rc = pearson(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
  const rho = pearson(ranks(rows.map((r) => r.total)), ranks(rows.map((r) => r.refTotal)));
  const dt = rows.reduce((a, r) => a + Math.abs(r.total - r.refTotal), 0) / rows.length;
  const tp = rows.reduce((a, r) => a + r.caps.filter((c) => r.refCaps.includes(c)).length, 0);
  const fp = rows.reduce((a, r) => a + r.caps.filter((c) => !r.refCaps.includes(c)).length, 0);
  const fn = rows.reduce((a, r) => a + r.refCaps.filter((c) => !r.caps.includes(c)).length, 0);
  console.log(`\nall ${rows.length}: caps agreed ${tp}, fired but not in the review ${fp}, in the review but not fired ${fn}`);
  const withR2 = rows.filter((r) => r.r2), withSurface = rows.filter((r) => r.surface !== null);
  if (withR2.length) console.log(`all ${rows.length}: Rule of Two legs agree ${withR2.reduce((a, r) => a + r.r2.legs, 0)}/${3 * withR2.length}, same default session ${withR2.filter((r) => r.r2.same).length}/${withR2.length}; agent surface ${withSurface.reduce((a, r) => a + r.surface, 0)}/${9 * withSurface.length}`);
  console.log(`all ${rows.length}: exact ${(100 * sum('exact') / sum('n')).toFixed(0)}%  within-1 ${(100 * sum('near') / sum('n')).toFixed(0)}%  mean |Δtotal| ${dt.toFixed(2)}  criterion r ${rc.toFixed(2)}  total rank ρ ${rho.toFixed(2)}`);
}
