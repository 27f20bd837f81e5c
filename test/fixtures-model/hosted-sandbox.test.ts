import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A search app whose one code tool runs the model's Python in a hosted sandbox service (Daytona),
 * created for the call through its process API (`sandbox.process.codeRun(code)`): the code runs
 * in a container on the provider's machines, never on the server (C4 S L2, a container whose
 * settings the harness does not harden; the cap does not fire), and creating the sandbox is no
 * change to a remote service (no C2 cap). The same tool handing the code to
 * a runner object of its own module is not isolated.
 */
function app(hosted: boolean) {
  const dir = writeTree('searchpad', {
    'package.json': JSON.stringify({ name: 'searchpad', version: '0.1.0', dependencies: { ai: '^5.0.0', '@ai-sdk/openai': '^2.0.0', zod: '^3.23.0', '@daytonaio/sdk': '^0.20.0' } }),
    'lib/runner.ts': hosted
      ? "import { Daytona } from '@daytonaio/sdk';\n\nexport async function runPython(code: string): Promise<string> {\n  const daytona = new Daytona({ apiKey: process.env.DAYTONA_API_KEY });\n  const sandbox = await daytona.create({ language: 'python' });\n  const execution = await sandbox.process.codeRun(code);\n  await sandbox.delete();\n  return execution.result;\n}\n"
      : "import { Interpreter } from './interpreter';\n\nexport async function runPython(code: string): Promise<string> {\n  const sandbox = new Interpreter();\n  const execution = await sandbox.process.codeRun(code);\n  return execution.result;\n}\n",
    'lib/interpreter.ts': "import { execFileSync } from 'node:child_process';\n\nexport class Interpreter {\n  process = { codeRun: async (code: string) => ({ result: execFileSync('python3', ['-c', code], { encoding: 'utf8' }) }) };\n}\n",
    'app/api/chat/route.ts': `import { openai } from '@ai-sdk/openai';
import { streamText, tool } from 'ai';
import { z } from 'zod';
import { runPython } from '../../../lib/runner';

export async function POST(req: Request) {
  const { messages } = await req.json();
  const result = streamText({
    model: openai('gpt-4o'),
    messages,
    tools: {
      code_interpreter: tool({
        description: 'Write and execute Python code.',
        inputSchema: z.object({ code: z.string() }),
        execute: async ({ code }) => runPython(code),
      }),
    },
  });
  return result.toDataStreamResponse();
}
`,
  });
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}
const c4 = (r: Awaited<ReturnType<typeof audit>>) => r.criteria.find((c) => c.id === 'C4')!;

describe("a code tool that runs the model's code in a hosted sandbox service", () => {
  it('runs it in a container, not on the server (C4 S L2, no cap)', async () => {
    const report = await app(true);
    const t = report.agent!.tools.find((x) => x.name === 'code_interpreter')!;
    expect(t.reaches).toContain('exec');
    expect(c4(report).levels.S).toBe(2);
    expect(c4(report).cap).toBeNull();
    // Creating the sandbox changes no remote service's records: no ungated remote action, no C2 cap.
    expect(t.reaches).not.toContain('remote');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });

  it('is on the host when the runner object is its own', async () => {
    const report = await app(false);
    expect(c4(report).levels.S).toBe(0);
    expect(c4(report).cap).not.toBeNull();
  });
});
