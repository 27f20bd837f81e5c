import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { PY_TOOL_LOOP, RUBRIC, writeTree } from '../helpers.js';

/**
 * A shell tool whose prompt sits in a block that runs only while a "yolo" bypass is off
 * (`if not yolo_mode and sys.stdin.isatty():`), the bypass read from settings through a getter
 * with a literal fallback (`get_bool_value("yolo_mode", True)`). Shipped on, the prompt never
 * runs: the ask is opt-in. Shipped off, it stands.
 */
const agent = (fallback: 'True' | 'False'): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "pup"\nversion = "0.1.0"\ndependencies = ["openai"]\n',
  'pup/config.py': `import configparser
import os

CONFIG = configparser.ConfigParser()
CONFIG.read(os.path.expanduser("~/.pup/pup.cfg"))


def get_bool_value(key, fallback):
    value = CONFIG.get("pup", key, fallback=None)
    return fallback if value is None else value.lower() in ("1", "true", "yes", "on")


def get_yolo_mode():
    return get_bool_value("yolo_mode", ${fallback})
`,
  'pup/approval.py': `def get_user_approval(title, command):
    answer = input(f"{title}: run {command}? [y/N] ")
    return answer.strip().lower() == "y"
`,
  'pup/tools.py': `import subprocess
import sys

from pup.approval import get_user_approval
from pup.config import get_yolo_mode


def run_shell_command(command):
    yolo_mode = get_yolo_mode()
    if not yolo_mode and sys.stdin.isatty():
        confirmed = get_user_approval("Shell", command)
        if not confirmed:
            return "USER REJECTED"
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


TOOLS = {"run_shell_command": run_shell_command}
`,
  'pup/main.py': `import json

from openai import OpenAI

from pup.tools import TOOLS

client = OpenAI()


${PY_TOOL_LOOP}`,
});

const shell = async (name: string, fallback: 'True' | 'False') => {
  const report = await audit(writeTree(name, agent(fallback)), { rubricDir: RUBRIC, factsCache: false });
  const tool = report.agent!.tools.find((t) => t.name === 'run_shell_command')!;
  const exec = tool.paths.filter((p) => p.kind === 'exec');
  return { exec: exec.map((p) => [p.gated, p.gate?.kind ?? null, p.gate?.switchOff ? `${p.gate.switchOff.path}:${p.gate.switchOff.line}` : null]), caps: report.criteria.filter((c) => c.cap !== null).map((c) => c.id) };
};

describe('an ask in a block that runs only while a bypass is off', () => {
  it('is opt-in where the bypass is on by default, and the caps fire', async () => {
    expect(await shell('pup-yolo-on', 'True')).toEqual({ exec: [[false, 'opt-in', 'pup/config.py:14']], caps: ['C2', 'C4', 'C6'] });
  });

  it('stands where the bypass is off by default', async () => {
    const { exec, caps } = await shell('pup-yolo-off', 'False');
    expect(exec).toEqual([[true, 'bypass-switch', null]]);
    expect(caps).not.toContain('C2');
  });
});
