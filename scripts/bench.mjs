// npm run bench [-- <path>...]: prints wall time per stage, files and bytes scanned, files parsed per
// language and peak RSS, for synthetic repositories of 1k, 5k and 20k files (or the paths given).
// Each target runs in its own process so peak RSS is that target's alone.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { syntheticRepo } from './synthetic.mjs';

const SELF = fileURLToPath(import.meta.url);

async function measure(target) {
  const { acquire } = await import('../dist/acquire/index.js');
  const { buildInventory } = await import('../dist/inventory/index.js');
  const { runRubricProbes } = await import('../dist/probes/run.js');
  const { parseCounts, resetParseCounts } = await import('../dist/probes/stats.js');
  const { evaluate } = await import('../dist/evaluate/index.js');
  const { score } = await import('../dist/score/index.js');
  const { loadRubric } = await import('../dist/rubric/load.js');
  const { audit } = await import('../dist/audit.js');
  const { renderMarkdown } = await import('../dist/render/markdown.js');
  const rubricDir = process.env.BENCH_RUBRIC ?? new URL('../rubrics/dids', import.meta.url).pathname;

  const stages = {};
  const time = async (name, fn) => {
    const t = performance.now();
    const out = await fn();
    stages[name] = performance.now() - t;
    return out;
  };
  const rubric = loadRubric(rubricDir);
  const snapshot = await time('acquire', () => acquire(target, {}));
  const inventory = await time('inventory', () => buildInventory(snapshot));
  resetParseCounts();
  const results = await time('probe', () => runRubricProbes(rubric.probes, inventory));
  const parsed = { ...parseCounts };
  const scored = await time('evaluate', () => score(rubric, evaluate(rubric, results, inventory, { webUrl: snapshot.webUrl, commit: snapshot.commit })));
  // The whole pipeline once more, as the CLI runs it (verification and rendering included).
  const t = performance.now();
  const report = await audit(target, { rubricDir });
  const md = renderMarkdown(report);
  stages['full audit + render'] = performance.now() - t;
  return {
    target,
    files: inventory.files.length,
    entries: snapshot.entries.length,
    bytes: inventory.bytesRead,
    languages: inventory.languages,
    parsed,
    stages,
    total: scored.total,
    reportBytes: md.length,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

if (process.argv[2] === '--one') {
  console.log(JSON.stringify(await measure(process.argv[3])));
} else {
  const targets = process.argv.length > 2 ? process.argv.slice(2) : [1000, 5000, 20000].map((n) => syntheticRepo(n));
  console.log(`machine: ${cpus().length} cores, node ${process.version}`);
  for (const target of targets) {
    const r = JSON.parse(execFileSync(process.execPath, [SELF, '--one', target], { encoding: 'utf8', maxBuffer: 16 << 20 }));
    const ms = (x) => `${(x / 1000).toFixed(2)} s`;
    console.log(`\n${r.target}`);
    console.log(`  files scanned ${r.files} of ${r.entries} entries, ${(r.bytes / 1e6).toFixed(1)} MB; per language ${JSON.stringify(r.languages)}`);
    console.log(`  parsed per language ${JSON.stringify(r.parsed)} (at most one parse per file per parser)`);
    console.log(`  stages: ${Object.entries(r.stages).map(([k, v]) => `${k} ${ms(v)}`).join(' · ')}`);
    console.log(`  peak RSS ${r.peakRssMb} MB · total score ${r.total.toFixed(2)}`);
  }
}
