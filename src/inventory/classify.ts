import type { Language } from '../rubric/schema.js';

/** Why a file of the target is not product code. The Limitations section counts each. */
export type ExcludeReason = 'test' | 'fixture' | 'vendored' | 'generated' | 'docs' | 'ci' | 'dev' | 'binary' | 'oversize' | 'symlink' | 'submodule' | 'limit' | 'depth' | 'long-path' | 'nesting';

/** Python packaging and task-runner files: developer tooling at a project's root, a module inside a package. */
const PYTHON_TOOL_FILE = /(^|\/)(noxfile|tasks|fabfile|setup)\.py$/;

// Path rules are tried in order; the first that matches names the reason.
const PATH_RULES: Array<[ExcludeReason, RegExp]> = [
  ['vendored', /(^|\/)(node_modules|vendor|vendored|third_party|third-party|bower_components|\.yarn)\//],
  // A web app's folder of libraries served as they are (`public/lib/pdf.mjs`, `static/js/lib/jquery.js`):
  // copies of third-party code, not the app's own.
  ['vendored', /(^|\/)(public|static|assets|wwwroot)\/(js\/)?(libs?|vendors?)\//],
  ['generated', /(^|\/)(dist|build|out|target|\.next|\.nuxt|coverage|__generated__|generated)\//],
  ['generated', /(\.min\.([cm]?js|css)|\.bundle\.js|\.generated\.[a-z]+|_pb2(_grpc)?\.py|\.pb\.go|\.pb\.rs|_generated\.go)$/],
  ['generated', /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|poetry\.lock|uv\.lock|bun\.lockb?)$/],
  ['test', /(^|\/)(tests?|__tests__|__mocks__|specs?|e2e|testdata|testing)\//],
  // Test support under other names (evals, auto_eval, test-utils, integration-tests, manual-testing-sandbox, benchmarks,
  // benchmark_collection, review_iclr_bench, a SWE-bench harness such as agent_swe_bench_experimental): never product code.
  ['test', /(^|\/)(evals?|benchmarks?|[\w-]+[-_](evals?|benchmarks?|bench)|benchmarks?[-_][\w-]+|([\w-]+[-_])?swe[-_]?bench([-_][\w-]+)?|test[-_](utils|helpers|data|fixtures|stubs|support|mocks)|[\w-]+[-_]tests?|([\w-]+[-_])?testing[-_][\w-]+)\//],
  // A Go command named for testing (`cmd/testai/`, `cmd/test-conn/`): a program the developers run
  // against their own code, not one the product ships.
  ['test', /(^|\/)cmd\/test[\w-]*\//],
  // An evaluation harness at the repository's root (evaluation/run_infer.py, test-kitchen/); inside
  // a package, an `evaluation` or `test_generation` module can be the product's own (a data agent's
  // code evaluator, a test-writing agent's generator).
  ['test', /^(evaluations?|tests?[-_][\w-]+)\//],
  // (`agent.spec-d.ts`, `chain.test-d.ts`: type-level tests, which vitest checks and nothing runs.)
  ['test', /(\.(test|spec)(-d)?\.[cm]?[jt]sx?|[-_]test\.[cm]?[jt]sx?|_test\.go|_test\.py|(^|\/)test_[^/]*\.py|(^|\/)conftest\.py)$/],
  ['fixture', /(^|\/)(fixtures?|__fixtures__|mocks?)\//],
  // A mock in a file of its own (`mockResponseGenerator.ts`, `mock_lm.py`, `client.mock.ts`): a
  // stand-in for the real thing, whose canned values (`num_turns: 1`) are no setting of the product.
  ['fixture', /(^|\/)(mock[-_A-Z][^/]*|[^/]+[._-]mocks?)\.([cm]?[jt]sx?|py|go|rs)$/],
  // CI definitions run the project's own pipelines, not the product a user installs.
  ['ci', /^(\.github|\.gitlab|\.circleci|\.buildkite)\/|^\.gitlab-ci\.ya?ml$/],
  ['docs', /(^|\/)(docs?|examples?|samples?|demo|demos|website|cookbook|notebooks?|tutorials?)\//],
  // Starter projects to copy (`quickstart/`, `starter-kit/`, an SDK's `bootstrap-node/`): what a user
  // begins from, as an example is.
  ['docs', /(^|\/)(quickstarts?|starters?|starter[-_]kits?|boilerplates?|bootstrap[-_](node|go|python|py|rust|dotnet|java|ts|js|typescript|javascript))\//],
  // Config files named as examples to copy (config.example.yaml, claude_config_example.json, a
  // demo.json) and API descriptions (openapi.yaml, swagger.json): what a user might write, not
  // what ships enabled.
  ['docs', /(^|\/)([^/]*[._-])?(examples?|samples?|demo|template|openapi|swagger)([._-][^/]*)?\.(json|jsonc|ya?ml|toml)$/i],
  // Developer tooling, not what a user installs: scripts, dev containers and editor or agent
  // settings in hidden folders, build-tool configuration, task runners.
  // (A web app's `public/scripts/` or `static/scripts/` is the code its pages run: the product's own.)
  ['dev', /(^|\/)(?<!(?:public|static|assets|wwwroot)\/)(scripts?|hack|tools\/dev(elop(ment)?)?|dev-tools?|devtools)\//],
  // (Remix and React Router keep server-only and client-only modules in `.server` and `.client`
  // folders: those are the product's own code.)
  ['dev', /(^|\/)\.(?!(server|client)\/)[^/]+\//],
  // The repository's own agent and editor settings (.mcp.json, .cursorrules.json), at its root or
  // at the root of one of its projects (a monorepo's `apps/cli/.mcp.json`).
  ['dev', /(^|\/)\.[^/]+\.(json|jsonc|ya?ml|toml)$/],
  ['dev', /(^|\/)([\w.-]+\.config\.[cm]?[jt]s|Makefile|Taskfile\.ya?ml|justfile|Gruntfile\.js|gulpfile\.js|Dockerfile\.dev|docker-compose\.dev\.ya?ml)$/],
  ['dev', PYTHON_TOOL_FILE],
  ['docs', /\.(md|mdx|rst|txt|adoc)$/i],
];

/**
 * Why a file is not product code, by its path (null: it is). `pythonPackages` are the folders that
 * hold an `__init__.py`: there a `setup.py` or `tasks.py` is a module of the package (a pipeline's
 * setup step, a task model), not the project's packaging or task-runner file.
 */
export function excludedByPath(path: string, pythonPackages?: ReadonlySet<string>): ExcludeReason | null {
  for (const [reason, re] of PATH_RULES) {
    if (!re.test(path)) continue;
    if (re === PYTHON_TOOL_FILE && pythonPackages?.has(path.slice(0, Math.max(0, path.lastIndexOf('/'))))) continue;
    return reason;
  }
  return null;
}

/**
 * A root `scripts/` folder that is a Python package the product imports (`from scripts.utils import
 * …` in the entry point beside it) is where the product's code lives, not developer tooling.
 */
const SCRIPTS_PACKAGE = /^(scripts?)\//;
/** The root scripts package a Python file belongs to (`scripts`, `script`), given the package folders; else undefined. */
export const scriptsModule = (path: string, pythonPackages: ReadonlySet<string>): string | undefined => {
  const m = path.endsWith('.py') ? SCRIPTS_PACKAGE.exec(path)?.[1] : undefined;
  return m && pythonPackages.has(m) ? m : undefined;
};
/** A statement that imports `module` (`from scripts.utils import …`, `import scripts.x`). */
export const importOf = (module: string): RegExp => new RegExp(`^[ \\t]*(from|import)[ \\t]+${module}(\\.|[ \\t]|$)`, 'm');

const EXTENSIONS: Record<string, Language> = {
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascript',
  '.py': 'python',
  '.rs': 'rust',
  '.go': 'go',
};

/** Source languages the probes understand; everything else is "other" (config probes may still read it). */
export function languageOf(path: string): Language | null {
  if (path.endsWith('.d.ts')) return null;
  const dot = path.lastIndexOf('.');
  return dot < 0 ? null : (EXTENSIONS[path.slice(dot).toLowerCase()] ?? null);
}

/** Languages a reviewer would expect probes for but the tool has none: they lower confidence. */
const UNCOVERED: Record<string, string> = {
  '.java': 'java', '.kt': 'kotlin', '.swift': 'swift', '.cs': 'csharp', '.rb': 'ruby', '.php': 'php',
  '.c': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.h': 'c', '.scala': 'scala', '.dart': 'dart', '.ex': 'elixir', '.lua': 'lua', '.zig': 'zig',
};
export function uncoveredLanguageOf(path: string): string | null {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? null : (UNCOVERED[path.slice(dot).toLowerCase()] ?? null);
}

/** Generated-code markers that tools put in a file's first lines. */
/**
 * A generator's header: Go's `Code generated … DO NOT EDIT`, `@generated`, `auto-generated by …`,
 * "this file was generated", `DO NOT EDIT`. The word alone is no header: a module whose docstring
 * says it removes "auto-generated title fields" or writes a key "auto-generated on first run" is
 * product code, and was left out of probing for it.
 */
const GENERATED_HEADER = /Code generated .* DO NOT EDIT|@generated\b|\bauto-?generated (by|from|file|code|module)\b|\b(file|code|module) (is|was|has been) (auto(matically)?[- ]?)?generated\b|\bDO NOT EDIT\b/i;

/**
 * A module exported from a notebook (nbdev: `# AUTOGENERATED! DO NOT EDIT! File to edit:
 * ../nbs/00_core.ipynb.`): the package ships it, and the notebook it names is no file the
 * probes read, so it is the product code.
 */
const NOTEBOOK_EXPORT = /\bFile to edit:\s*\S+\.ipynb\b/;

export function looksGenerated(head: string): boolean {
  return GENERATED_HEADER.test(head) && !NOTEBOOK_EXPORT.test(head);
}

export function looksBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0);
}

/** Non-code files probes may read: configuration, container and sandbox definitions, scripts. */
export function isConfigLike(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (
    /\.(json|jsonc|ya?ml|toml|ini|cfg|conf|sh|bash|ps1|sb|plist|policy|env\.example)$/i.test(name) ||
    /^(Dockerfile|Containerfile)(\..*)?$|^\.env(\..*)?$|^(docker-)?compose\.|^go\.mod$/i.test(name)
  );
}
