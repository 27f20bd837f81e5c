import { isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import { parse as parseToml } from 'smol-toml';

/** A value selected by a key path, as text, and the character offset it sits at. */
export interface ConfigHit {
  shown: string;
  offset: number;
}

function selectYaml(node: YamlNode | null | undefined, keys: string[], out: ConfigHit[]): void {
  if (!node) return;
  if (keys.length === 0) {
    const value = isScalar(node) ? node.value : (node as { toJSON(): unknown }).toJSON();
    out.push({ shown: typeof value === 'string' ? value : JSON.stringify(value) ?? '', offset: node.range?.[0] ?? 0 });
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

function selectPlain(value: unknown, keys: string[], text: string, from: number, out: ConfigHit[]): void {
  if (keys.length === 0) {
    out.push({ shown: typeof value === 'string' ? value : JSON.stringify(value) ?? '', offset: from });
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

/** Values at a dotted key path (`*` for any key or index) in a JSON, YAML or TOML file; nothing when it does not parse. */
export function configHits(path: string, text: string, keys: string[]): ConfigHit[] {
  const out: ConfigHit[] = [];
  if (/\.toml$/i.test(path)) {
    try {
      selectPlain(parseToml(text), keys, text, 0, out);
    } catch {
      /* unparseable TOML: no keys to report */
    }
    return out;
  }
  if (!/\.(json|jsonc|ya?ml)$/i.test(path)) return out;
  const doc = parseDocument(text, { prettyErrors: false, strict: false, uniqueKeys: false });
  if (doc.errors.length === 0) selectYaml(doc.contents as YamlNode, keys, out);
  return out;
}
