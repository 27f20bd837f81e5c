import { lineAt, type SourceFile } from '../../inventory/index.js';
import type { Probe } from '../../rubric/schema.js';
import { findingText, type Engine, type Finding } from '../types.js';

const compiled = new Map<string, RegExp>();
export function probeRegex(probe: Probe): RegExp {
  const key = `${probe.ignoreCase ? 'i' : ''}/${probe.pattern}`;
  let re = compiled.get(key);
  if (!re) {
    // 'm' so that ^ and $ anchor at lines, as rg does; one pass over the whole file per probe.
    re = new RegExp(probe.pattern!, `gm${probe.ignoreCase ? 'i' : ''}`);
    compiled.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

/** Regular expressions over the file text, reported per match like `rg -n`. */
export const textEngine: Engine = {
  run(probes: Probe[], file: SourceFile): Finding[] {
    const out: Finding[] = [];
    for (const probe of probes) {
      const re = probeRegex(probe);
      for (let m = re.exec(file.text); m; m = re.exec(file.text)) {
        if (m[0] === '') {
          re.lastIndex++;
          continue;
        }
        out.push({
          probe: probe.id,
          path: file.path,
          startLine: lineAt(file, m.index),
          endLine: lineAt(file, m.index + m[0].length - 1),
          text: findingText(m[0]),
        });
      }
    }
    return out;
  },
};
