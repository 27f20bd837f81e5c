import { parse as parseToml } from 'smol-toml';
import type { Snapshot } from '../acquire/types.js';

/** A one-line description of the target from its own package metadata or README (escaped later, never trusted). */
export async function describeTarget(snapshot: Snapshot): Promise<string | null> {
  const candidates = ['package.json', 'Cargo.toml', 'pyproject.toml', 'README.md', 'readme.md', 'README'];
  const present = candidates.filter((c) => snapshot.entries.some((e) => e.path === c && e.kind === 'file'));
  const data = await snapshot.read(present, 256 * 1024);
  for (const name of present) {
    const text = data.get(name)?.toString('utf8');
    if (!text) continue;
    try {
      if (name === 'package.json') {
        const d = (JSON.parse(text) as { description?: unknown }).description;
        if (typeof d === 'string' && d.trim()) return oneLine(d);
      } else if (name.endsWith('.toml')) {
        const t = parseToml(text) as { package?: { description?: unknown }; project?: { description?: unknown } };
        const d = t.package?.description ?? t.project?.description;
        if (typeof d === 'string' && d.trim()) return oneLine(d);
      } else {
        const para = text.split(/\n\s*\n/).map((p) => p.trim()).find((p) => p && !p.startsWith('#') && !p.startsWith('[!') && !p.startsWith('<'));
        if (para) return oneLine(para);
      }
    } catch {
      /* malformed metadata: try the next source */
    }
  }
  return null;
}

function oneLine(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
