import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A harness whose commands run only in an in-browser runtime has no host to fall back to: the
 * sandbox fails closed by construction (C4 C and D reach L3 and above). The same harness with one
 * host shell beside the runtime does not.
 */
const files = (extra: Record<string, string> = {}) => ({
  'package.json': '{ "name": "webide", "type": "module", "dependencies": { "@webcontainer/api": "1.5.0", "ai": "4.0.0" } }\n',
  'app/lib/runtime.ts': [
    "import { WebContainer } from '@webcontainer/api';",
    "export const runtime = WebContainer.boot({ workdirName: 'project' });",
    'export async function runInRuntime(command: string) {',
    "  const process = await (await runtime).spawn('jsh', ['-c', command]);",
    '  return process.exit;',
    '}',
    '',
  ].join('\n'),
  'app/lib/chat.ts': [
    "import { streamText } from 'ai';",
    "import { runInRuntime } from './runtime';",
    'export async function chat(model: any, messages: any[]) {',
    '  const result = await streamText({ model, messages, maxSteps: 8 });',
    '  for await (const part of result.fullStream) if (part.type === "tool-call") await runInRuntime(String(part.args.command));',
    '}',
    '',
  ].join('\n'),
  'app/routes/api.chat.ts': "import { chat } from '../lib/chat';\nexport default async function handler(request: Request) {\n  return chat(undefined, await request.json());\n}\n",
  ...extra,
});

const levels = async (dir: string) => {
  const report = await audit(dir, { rubricDir: RUBRIC, factsCache: false });
  const c4 = report.criteria.find((c) => c.id === 'C4')!;
  return { C: c4.levels.C, D: c4.levels.D };
};

describe('a sandbox with no host beside it', () => {
  it('fails closed by construction: C4 C and D at L3 or above', async () => {
    const got = await levels(writeTree('webide', files()));
    expect(got.C).toBeGreaterThanOrEqual(3);
    expect(got.D).toBeGreaterThanOrEqual(3);
  });

  it('does not once a host shell sits beside the runtime', async () => {
    const got = await levels(
      writeTree(
        'webide-host',
        files({
          'app/lib/host.ts': "import { execSync } from 'node:child_process';\nexport function runOnHost(command: string) {\n  return execSync(command, { encoding: 'utf8' });\n}\n",
          'app/lib/index.ts': "import { chat } from './chat';\nimport { runOnHost } from './host';\nexport { chat, runOnHost };\nrunOnHost(process.argv[2] ?? 'ls');\n",
        }),
      ),
    );
    expect(got.C).toBeLessThan(3);
    expect(got.D).toBeLessThan(3);
  });
});
