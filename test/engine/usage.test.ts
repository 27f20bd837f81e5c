import { describe, expect, it } from 'vitest';
import { extractFacts, type Definition } from '../../src/facts/extract.js';
import { planOf } from '../../src/facts/plan.js';
import { loadRubric } from '../../src/rubric/load.js';
import { RUBRIC } from '../helpers.js';
import { liveNames, packagedEntryPoints, reexportedNames, usesOf, type UsageFile } from '../../src/facts/usage.js';

/** A definition of `name` spanning the first occurrence of `body` in `text`. */
function def(text: string, name: string, body: string): Definition {
  const start = text.indexOf(body);
  return { name, role: 'function', start, end: start + body.length, nameAt: text.indexOf(name, start), entry: false };
}

/** Offsets [start, end) of each given piece of non-code text (a comment, a string). */
const ranges = (text: string, ...pieces: string[]) => pieces.flatMap((p) => [text.indexOf(p), text.indexOf(p) + p.length]);

describe('live names (definitions live code uses)', () => {
  it('follows uses from top-level code through definitions, and only there', () => {
    const text = [
      'function main() { helper(); }',
      'function helper() { return deep(1); }',
      'function deep(x) { return x; }',
      'function unused() { orphan(); }',
      'function orphan() {}',
      '// a comment naming stray()',
      'const s = "stray()";',
      'function stray() {}',
      'main();',
    ].join('\n');
    const defs = [
      def(text, 'main', 'function main() { helper(); }'),
      def(text, 'helper', 'function helper() { return deep(1); }'),
      def(text, 'deep', 'function deep(x) { return x; }'),
      def(text, 'unused', 'function unused() { orphan(); }'),
      def(text, 'orphan', 'function orphan() {}'),
      def(text, 'stray', 'function stray() {}'),
    ];
    const file: UsageFile = { path: 'a.js', text, facts: { definitions: defs, nonCode: ranges(text, '// a comment naming stray()', '"stray()"') } };
    // A helper only a dead function calls is dead; a name in a comment or string is no use.
    expect([...liveNames([file])].sort()).toEqual(['deep', 'helper', 'main']);
  });

  it('reads tokens as the identifier pattern does: a digit or non-ASCII letter before a name ends no token, a word character or $ joins it', () => {
    const text = ['9alpha;', 'ébeta;', 'x_gamma;', '$delta;', 'epsilon9;', 'zeta$;', 'function alpha(){}', 'function beta(){}', 'function gamma(){}', 'function delta(){}', 'function epsilon(){}', 'function zeta(){}'].join('\n');
    const defs = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'].map((n) => def(text, n, `function ${n}(){}`));
    const file: UsageFile = { path: 'b.js', text, facts: { definitions: defs, nonCode: [] } };
    // `9alpha` and `ébeta` hold the tokens alpha and beta; x_gamma, $delta, epsilon9 and zeta$ are other tokens.
    expect([...liveNames([file])].sort()).toEqual(['alpha', 'beta']);
  });

  it('keeps each file\'s share of the sweep with its facts: the names its top level and each definition use', () => {
    const text = ['function main() { helper(); /* stray() */ }', 'function helper() { return deep(1); }', 'function deep(x) { return x; }', 'main();'].join('\n');
    const defs = [def(text, 'main', 'function main() { helper(); /* stray() */ }'), def(text, 'helper', 'function helper() { return deep(1); }'), def(text, 'deep', 'function deep(x) { return x; }')];
    const facts = { definitions: defs, nonCode: ranges(text, '/* stray() */') };
    const uses = usesOf(text, facts);
    // A definition's own name and its keyword are not uses of it; the comment's name is none at all.
    expect(uses).toEqual({ top: 'main', inner: [['main', 'function helper'], ['helper', 'function return deep'], ['deep', 'function x return']] });
    // The live names read from the kept share are those the sweep finds, even with a text that no longer says so.
    const swept = liveNames([{ path: 'a.js', text, facts }]);
    expect(liveNames([{ path: 'a.js', text: '', facts: { ...facts, uses } }])).toEqual(swept);
    expect([...swept].sort()).toEqual(['deep', 'helper', 'main']);
  });

  it("reads an object literal's method as run where the code around it runs: whoever is handed the object calls it", () => {
    const plan = planOf(loadRubric(RUBRIC));
    const text = [
      'async function* execute(message: string) { yield message; }',
      'function stale(message: string) { return new ReadableStream({ async pull(c) { for await (const x of orphan(message)) c.enqueue(x); } }); }',
      'async function* orphan(message: string) { yield message; }',
      'export function handle(message: string) {',
      '  return new ReadableStream({',
      '    async start(controller) {',
      '      for await (const chunk of execute(message)) controller.enqueue(chunk);',
      '    },',
      '  });',
      '}',
      'handle(process.argv[2]);',
    ].join('\n');
    const facts = extractFacts({ path: 'server/chat.ts', language: 'typescript', text }, plan);
    expect(facts.definitions.filter((d) => d.callback).map((d) => d.name)).toEqual(['pull', 'start']);
    // (Liveness goes by name: a dead function's callback named as a live one's would count as live.)
    // The generator the live handler's stream calls is live; the one only a dead function's stream calls is not.
    const live = liveNames([{ path: 'server/chat.ts', text, facts }]);
    expect(live.has('execute')).toBe(true);
    expect(live.has('orphan')).toBe(false);
  });
});

describe("a Python package's re-exports (its public interface)", () => {
  it("names imported into an __init__.py or listed in its __all__, and no other file's imports", () => {
    const files = [
      { path: 'src/lib/__init__.py', text: 'from . import _patch  # noqa\nfrom lib.session import Session\nfrom .schema import (\n    File,\n    Folder as Dir,  # aliased\n)\n\n__all__ = ["Session", "settings"]\n' },
      { path: 'src/lib/app.py', text: 'from lib.tools import Helper\n' },
    ];
    expect(reexportedNames(files)).toEqual(['File', 'Folder', 'Session', '_patch', 'settings']);
  });
});

describe('Python methods a framework calls by the shape of their name', () => {
  const plan = planOf(loadRubric(RUBRIC));
  const entries = (text: string) =>
    extractFacts({ path: 'app/menu.py', language: 'python', text }, plan)
      .definitions.filter((d) => d.entry)
      .map((d) => d.name);
  it('event handlers, key-binding actions, watchers and compose are entry points; other methods and plain functions are not', () => {
    const text = [
      'class Menu(ModalScreen):',
      '    def compose(self):',
      '        yield Button("Deny")',
      '',
      '    def on_button_pressed(self, event):',
      '        self._reject()',
      '',
      '    def action_cancel(self):',
      '        self.dismiss({"type": "rejected"})',
      '',
      '    def watch_value(self, value):',
      '        pass',
      '',
      '    def _reject(self):',
      '        self.dismiss({"type": "rejected"})',
      '',
      '',
      'def on_message(text):',
      '    return text',
      '',
    ].join('\n');
    expect(entries(text).sort()).toEqual(['action_cancel', 'compose', 'on_button_pressed', 'watch_value']);
  });
});

describe('a Python decorator whose arguments run over several lines', () => {
  const plan = planOf(loadRubric(RUBRIC));
  const defs = (text: string) => extractFacts({ path: 'agent/tools.py', language: 'python', text }, plan).definitions;
  it('makes the definition an entry point, as the same decorator on one line does', () => {
    const text = [
      'class Agent:',
      '    @tool(',
      '        description="Run a shell command (and return its output)",',
      '        params={"command": "the command, e.g. ls -la # a comment-like string"},',
      '    )',
      '    def run_command(self, command):',
      '        return command',
      '',
      '    @tool(description="Type text")',
      '    def type_text(self, text):',
      '        return text',
      '',
      '    @staticmethod',
      '    def helper(',
      '        x,',
      '    ):',
      '        return x',
      '',
      '    def plain(self):',
      '        return (',
      '            1',
      '        )',
      '',
      '    def after_parens(self):',
      '        return 2',
      '',
    ].join('\n');
    const byName = new Map(defs(text).map((d) => [d.name, d]));
    expect(byName.get('run_command')).toMatchObject({ entry: true });
    expect(byName.get('type_text')).toMatchObject({ entry: true });
    // A plain decorator binds without calling; a method after a closing bracket has no decorator.
    expect(byName.get('helper')?.entry).toBe(false);
    expect(byName.get('after_parens')?.entry).toBe(false);
    expect(byName.get('after_parens')?.bound).toBeUndefined();
  });
});

describe("a VS Code extension's entry points", () => {
  const manifest = (doc: object) => [{ path: 'package.json', text: JSON.stringify(doc, null, 2) }];

  it("are `activate` and `deactivate` of the module the manifest's top-level `main` names, not a nested key's", () => {
    const files = manifest({ contributes: { configuration: { main: './wrong.js' } }, main: './dist/extension.js', engines: { vscode: '^1.90.0' } });
    expect(packagedEntryPoints(files)).toEqual([
      { module: './dist/extension.js', name: 'activate' },
      { module: './dist/extension.js', name: 'deactivate' },
    ]);
  });

  it('are none where the editor is named only below the top level, or the manifest does not parse', () => {
    expect(packagedEntryPoints(manifest({ main: './index.js', engines: { node: '>=18' }, config: { engines: { vscode: '^1' } } }))).toEqual([]);
    expect(packagedEntryPoints([{ path: 'package.json', text: '{ "main": "./index.js", "engines": { "vscode": "^1" } ' }])).toEqual([]);
  });
});
