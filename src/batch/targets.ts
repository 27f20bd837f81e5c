import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { InputError } from '../acquire/types.js';

export interface BatchTarget {
  repo: string;
  commit?: string;
}

const yamlTargets = z.array(z.union([z.string(), z.strictObject({ repo: z.string().min(1), commit: z.string().min(1).optional() })]));

function fromLine(line: string): BatchTarget {
  // repo@commit; an '@' inside a scp-like URL (git@host:o/r) is not a commit separator.
  const m = /^(.*[^@\s])@([0-9A-Za-z._\/-]+)$/.exec(line);
  if (m && !/^[\w.-]+@[\w.-]+:[^@]*$/.test(line)) return { repo: m[1]!, commit: m[2]! };
  return { repo: line };
}

/** One `repo[@commit]` per line (# comments), or a YAML list of strings or {repo, commit}. */
export function readTargets(file: string): BatchTarget[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new InputError(`cannot read the target list ${file}`);
  }
  if (/\.ya?ml$/i.test(file)) {
    let data: unknown;
    try {
      data = parseYaml(text);
    } catch (e) {
      throw new InputError(`${file}: invalid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    const parsed = yamlTargets.safeParse(data);
    if (!parsed.success) throw new InputError(`${file}: at ${parsed.error.issues[0]!.path.join('.') || '(top level)'}: expected a list of "repo[@commit]" strings or {repo, commit} objects`);
    return parsed.data.map((t) => (typeof t === 'string' ? fromLine(t.trim()) : t.commit ? { repo: t.repo, commit: t.commit } : { repo: t.repo }));
  }
  return text
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter(Boolean)
    .map(fromLine);
}

/** `i/n` (1-based): the targets whose position modulo n is i-1, so n CI jobs split a list evenly. */
export function shardOf<T>(items: T[], shard: string | undefined): T[] {
  if (!shard) return items;
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  const i = m ? Number(m[1]) : 0;
  const n = m ? Number(m[2]) : 0;
  if (!m || n < 1 || i < 1 || i > n) throw new InputError(`--shard '${shard}': expected i/n with 1 ≤ i ≤ n, e.g. 2/4`);
  return items.filter((_, k) => k % n === i - 1);
}

/** A file-name-safe, unique-enough name for a target's report files. */
export function slugOf(t: BatchTarget): string {
  const base = t.repo.replace(/^[a-z]+:\/\/|\.git$/gi, '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(-80) || 'target';
  return t.commit ? `${base}@${t.commit.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 40)}` : base;
}
