import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A web app that hands the user's task to a coding agent it drives (Claude Code through its SDK)
 * through layers of calls deeper than the model follows, so the calls that reach it cannot be followed;
 * elsewhere the app asks before deleting a project, so the repository does hold an ask. With the
 * agent's approvals switched off where the adapter starts it (`permission_mode:
 * "bypassPermissions"`), the agent's own shell and file tools run the model's commands with nobody
 * asked: a code runner, ungated, and the C2 and C4 caps fire. Left in its default mode but run
 * headless with Bash and Write granted (`allowed_tools`), its approvals ask no one: the granted
 * tools run unasked, a code runner whose gate (the agent's approvals) does not hold, and the caps
 * fire. Granted nothing, it refuses every tool that needs approval: no code runner, no cap; so
 * also when the app switches the approvals off only behind a switch of its own that is off unless set.
 */
const OFF = '        option_kwargs = {"permission_mode": "bypassPermissions", "cwd": project_path, "allowed_tools": ["Bash", "Write", "Edit"]}';
const ON = '        option_kwargs = {"permission_mode": "default", "cwd": project_path, "allowed_tools": ["Bash", "Write", "Edit"]}';
// Unattended only when the app's own switch, off unless set, is on.
const BEHIND_SWITCH = '        option_kwargs = {"cwd": project_path}\n        if self.skip_permissions:\n            option_kwargs["permission_mode"] = "bypassPermissions"';
const files = (options: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "forge"\nversion = "0.1.0"\ndependencies = ["claude-code-sdk", "openai"]\n\n[project.scripts]\nforge = "forge.cli:main"\n',
  'forge/__init__.py': '',
  'forge/adapters/__init__.py': '',
  'forge/adapters/claude.py': `from claude_code_sdk import ClaudeCodeOptions, ClaudeSDKClient


class ClaudeAdapter:
    def __init__(self, skip_permissions: bool = False):
        self.skip_permissions = skip_permissions

    async def execute_with_streaming(self, instruction: str, project_path: str):
${options}
        options = ClaudeCodeOptions(**option_kwargs)
        async with ClaudeSDKClient(options=options) as client:
            await client.query(instruction)
            async for message in client.receive_response():
                yield message
`,
  'forge/manager.py': `from .adapters.claude import ClaudeAdapter

ADAPTERS = {"claude": ClaudeAdapter}


async def stream_task(kind: str, instruction: str, project_path: str):
    adapter = ADAPTERS[kind]()
    async for message in adapter.execute_with_streaming(instruction, project_path):
        print(message)


async def start_session(kind: str, instruction: str, project_path: str):
    await stream_task(kind, instruction, project_path)


async def handle_message(kind: str, instruction: str, project_path: str):
    await start_session(kind, instruction, project_path)


async def queue_message(kind: str, instruction: str, project_path: str):
    await handle_message(kind, instruction, project_path)


async def run_task(kind: str, instruction: str, project_path: str):
    await queue_message(kind, instruction, project_path)
`,
  'forge/cli.py': `import asyncio
import shutil
import sys

from openai import OpenAI

from .manager import run_task


def title_for(task: str) -> str:
    reply = OpenAI().chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Title: " + task}])
    return reply.choices[0].message.content


def delete_project(path: str) -> None:
    if input(f"Delete {path}? [y/N] ").strip().lower() == "y":
        shutil.rmtree(path)


def main() -> None:
    if sys.argv[1] == "delete":
        delete_project(sys.argv[2])
        return
    print(title_for(sys.argv[2]))
    asyncio.run(run_task("claude", sys.argv[2], sys.argv[3]))
`,
});

// The adapter in a project of its own in the repository (a worker service with its own manifest),
// which no call from the project that calls the model reaches: it is an agent itself.
const apart = (): Record<string, string> => {
  const tree = files(OFF);
  const out: Record<string, string> = {
    'worker/pyproject.toml': '[project]\nname = "worker"\nversion = "0.1.0"\ndependencies = ["claude-code-sdk"]\n\n[project.scripts]\nworker = "worker.main:main"\n',
    'worker/worker/__init__.py': '',
    'worker/worker/main.py': 'import asyncio\nimport sys\n\nfrom .manager import run_task\n\n\ndef main() -> None:\n    asyncio.run(run_task("claude", sys.argv[1], sys.argv[2]))\n',
  };
  for (const [path, text] of Object.entries(tree)) {
    if (path.startsWith('forge/adapters/') || path === 'forge/manager.py') out[`worker/${path.replace(/^forge\//, 'worker/')}`] = text;
    else if (path === 'forge/cli.py') out[path] = text.replace('from .manager import run_task\n', '').replace('    asyncio.run(run_task("claude", sys.argv[2], sys.argv[3]))\n', '');
    else out[path] = text;
  }
  return out;
};

const capped = (r: Awaited<ReturnType<typeof audit>>) => r.criteria.filter((c) => c.cap !== null).map((c) => c.id);

describe('a coding agent the harness drives', () => {
  it('with its approvals switched off, runs the model commands unasked: an ungated code runner, C2 and C4 caps', async () => {
    const report = await audit(writeTree('forge', files(OFF)), { rubricDir: RUBRIC, factsCache: false });
    const runner = report.agent!.tools.find((t) => t.construct === 'code runner')!;
    expect(runner.site).toMatchObject({ path: 'forge/adapters/claude.py', text: 'client.query(instruction)' });
    expect(runner.status).toBe('ungated');
    // The switch is what stands in the way, cited by its line.
    expect(runner.paths[0]!.gate).toMatchObject({ kind: 'switched-off', site: { path: 'forge/adapters/claude.py', line: 9 } });
    expect(capped(report)).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('in a project of its own that nothing in the model-calling project reaches, is still an agent: an ungated code runner', async () => {
    const report = await audit(writeTree('forge-apart', apart()), { rubricDir: RUBRIC, factsCache: false });
    const runner = report.agent!.tools.find((t) => t.construct === 'code runner');
    expect(runner?.site).toMatchObject({ path: 'worker/worker/adapters/claude.py', text: 'client.query(instruction)' });
    expect(runner?.status).toBe('ungated');
    expect(capped(report)).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('left in its default mode but granted Bash and Write headless, runs them unasked: its approvals ask no one', async () => {
    const report = await audit(writeTree('forge', files(ON)), { rubricDir: RUBRIC, factsCache: false });
    const runner = report.agent!.tools.find((t) => t.construct === 'code runner')!;
    expect(runner.site).toMatchObject({ path: 'forge/adapters/claude.py', text: 'client.query(instruction)' });
    expect(runner.status).toBe('ungated');
    expect(runner.paths[0]!.gate).toMatchObject({ kind: 'driven-agent', site: { path: 'forge/adapters/claude.py', line: 12 } });
    expect(capped(report)).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('left in its default mode and granted nothing, refuses what needs approval: no code runner, no cap', async () => {
    const report = await audit(writeTree('forge', files('        option_kwargs = {"cwd": project_path}')), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.filter((t) => t.construct === 'code runner')).toEqual([]);
    expect(capped(report)).toEqual([]);
  });

  it('with its approvals switched off only behind a switch of the app, asks by default: no code runner, no cap', async () => {
    const report = await audit(writeTree('forge', files(BEHIND_SWITCH)), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.filter((t) => t.construct === 'code runner')).toEqual([]);
    expect(capped(report)).toEqual([]);
  });
});
