import { isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import { parse as parseToml } from 'smol-toml';
import { lineAt, type SourceFile } from '../../inventory/index.js';
import type { Probe } from '../../rubric/schema.js';
import { findingText, type Engine, type Finding } from '../types.js';

interface Hit {
  value: unknown;
  /** Character offset of the value (or of the key where the value has no position). */
  offset: number;
}

function selectYaml(node: YamlNode | null | undefined, keys: string[], out: Hit[]): void {
  if (!node) return;
  if (keys.length === 0) {
    out.push({ value: isScalar(node) ? node.value : (node as { toJSON(): unknown }).toJSON(), offset: node.range?.[0] ?? 0 });
    return;
  }
  const [key, ...rest] = keys;
  if (isMap(node)) {
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (key === '*' || key === k) selectYaml(pair.value as YamlNode, rest, out);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      if (key === '*' || key === String(i)) selectYaml(item as YamlNode, rest, out);
    });
  }
}

function selectPlain(value: unknown, keys: string[], text: string, from: number, out: Hit[]): void {
  if (keys.length === 0) {
    out.push({ value, offset: from });
    return;
  }
  const [key, ...rest] = keys;
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (key !== '*' && key !== k) continue;
    // TOML carries no positions: place the hit at the key's first appearance after its parent.
    const at = text.indexOf(k, from);
    selectPlain(v, rest, text, at >= 0 ? at : from, out);
  }
}

function hitsOf(file: SourceFile, keys: string[]): Hit[] {
  const out: Hit[] = [];
  if (/\.toml$/i.test(file.path)) {
    try {
      selectPlain(parseToml(file.text), keys, file.text, 0, out);
    } catch {
      /* unparseable TOML: no keys to report */
    }
    return out;
  }
  const doc = parseDocument(file.text, { prettyErrors: false, strict: false, uniqueKeys: false });
  if (doc.errors.length === 0) selectYaml(doc.contents as YamlNode, keys, out);
  return out;
}

/** Keys in JSON, YAML and TOML files: `select` is a dotted path with * wildcards, `matches` a regex on the value. */
export const configEngine: Engine = {
  run(probes: Probe[], file: SourceFile): Finding[] {
    const out: Finding[] = [];
    for (const probe of probes) {
      const re = probe.matches ? new RegExp(probe.matches, probe.ignoreCase ? 'i' : '') : null;
      for (const hit of hitsOf(file, probe.select!.split('.'))) {
        const shown = typeof hit.value === 'string' ? hit.value : JSON.stringify(hit.value);
        if (re && !re.test(shown ?? '')) continue;
        const line = lineAt(file, hit.offset);
        const lineText = file.text.slice(file.lineStarts[line - 1], file.lineStarts[line] ?? file.text.length);
        out.push({ probe: probe.id, path: file.path, startLine: line, endLine: line, text: findingText(lineText) });
      }
    }
    return out;
  },
};
