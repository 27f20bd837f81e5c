import { createRequire } from 'node:module';
import { Lang, parse, registerDynamicLanguage, type NapiConfig, type SgRoot } from '@ast-grep/napi';
import type { SourceFile } from '../../inventory/index.js';
import type { Language, Probe } from '../../rubric/schema.js';
import { requiredWords } from '../prefilter.js';
import { countParse } from '../stats.js';
import { findingText, type Engine, type Finding } from '../types.js';

const require = createRequire(import.meta.url);
let registered = false;
/** Python, Rust and Go parsers ship as prebuilt libraries in their npm packages; load them once, on first use. */
function ensureDynamicLanguages(): void {
  if (registered) return;
  registerDynamicLanguage({
    python: require('@ast-grep/lang-python'),
    rust: require('@ast-grep/lang-rust'),
    go: require('@ast-grep/lang-go'),
  });
  registered = true;
}

const PARSER: Record<Language, Lang | string> = {
  typescript: Lang.TypeScript,
  tsx: Lang.Tsx,
  javascript: Lang.JavaScript,
  python: 'python',
  rust: 'rust',
  go: 'go',
};

/** A probe's rule for a file's language: tsx and javascript fall back to the typescript rule. */
export function ruleFor(probe: Probe, language: Language): Record<string, unknown> | undefined {
  const rules = probe.rules ?? {};
  if (rules[language]) return rules[language];
  if (language === 'tsx' || language === 'javascript') return rules['typescript'];
  return undefined;
}

export function parseFile(language: Language, text: string): SgRoot {
  if (language === 'python' || language === 'rust' || language === 'go') ensureDynamicLanguages();
  countParse(`ast-grep:${language}`);
  return parse(PARSER[language] as Lang, text);
}

const words = new Map<string, string[] | null>();

/** ast-grep rules (patterns, kinds, relational rules); the file is parsed once for all probes. */
export const astGrepEngine: Engine = {
  run(probes: Probe[], file: SourceFile): Finding[] {
    const language = file.language;
    if (!language) return [];
    // A probe whose rule needs words the file does not contain cannot match: no parse for it.
    const applicable = probes
      .map((p) => [p, ruleFor(p, language)] as const)
      .filter((pr): pr is readonly [Probe, Record<string, unknown>] => !!pr[1])
      .filter(([p, r]) => {
        const key = `${p.id}/${language}`;
        if (!words.has(key)) words.set(key, requiredWords(r));
        const need = words.get(key)!;
        return !need || need.some((w) => file.text.includes(w));
      });
    if (applicable.length === 0) return [];
    const root = parseFile(language, file.text).root();
    const out: Finding[] = [];
    for (const [probe, rule] of applicable) {
      for (const node of root.findAll({ rule } as unknown as NapiConfig)) {
        const r = node.range();
        out.push({ probe: probe.id, path: file.path, startLine: r.start.line + 1, endLine: r.end.line + 1, text: findingText(node.text()) });
      }
    }
    return out;
  },
};
