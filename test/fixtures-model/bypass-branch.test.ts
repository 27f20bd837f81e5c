import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { PY_TOOL_LOOP, RUBRIC, writeTree } from '../helpers.js';

/**
 * A shell tool that asks before it runs a command, except on the branch a "yolo" switch opens
 * (`if SETTINGS["yolo"]: return run(command)`). The switch is off unless the user turns it on, so
 * the ask stands for both steps; a tool that never asks gains nothing from a switch of that name.
 */
const agent = (body: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "yolo"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
  'yolo/agent.py': `import json
import subprocess

from openai import OpenAI

client = OpenAI()
SETTINGS = {"yolo": False}


def confirm(command):
    return input(f"Run {command}? [y/N] ").strip().lower() == "y"


def run(command):
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def run_shell(command):
${body}


TOOLS = {"run_shell": run_shell}


${PY_TOOL_LOOP}`,
});

const paths = async (name: string, body: string) => {
  const report = await audit(writeTree(name, agent(body)), { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.name === 'run_shell')!;
  return { paths: tool.paths.filter((p) => p.kind === 'exec').map((p) => [p.gated, p.gate?.kind ?? null, p.gate?.site.line ?? null]), caps: report.criteria.filter((c) => c.cap !== null).map((c) => c.id) };
};

describe('a step on the branch a bypass switch opens', () => {
  it('is gated by the ask the switch skips, as a bypass switch', async () => {
    const body = '    if SETTINGS["yolo"]:\n        return run(command)\n    if not confirm(command):\n        return "denied"\n    return run(command)';
    expect(await paths('yolo-branch', body)).toEqual({ paths: [[true, 'bypass-switch', 19], [true, 'always', 21]], caps: [] });
  });

  it('is not, when the branch runs while the switch is off (`if not yolo`)', async () => {
    const body = '    if not SETTINGS["yolo"]:\n        return run(command)\n    if not confirm(command):\n        return "denied"\n    return run(command)';
    expect((await paths('yolo-negated', body)).paths[0]).toEqual([false, null, null]);
  });

  it('is not, in a tool that never asks: the switch only opts the step in', async () => {
    const body = '    if SETTINGS["yolo"]:\n        return run(command)\n    return "not run"';
    expect(await paths('yolo-alone', body)).toEqual({ paths: [[false, null, null]], caps: ['C2', 'C4', 'C6'] });
  });
});
