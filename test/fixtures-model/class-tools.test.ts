import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Python agent whose tools are classes with a decorated run method (`@override async def
 * __call__`) on an abstract base, each named by a module constant that every tool module calls
 * `NAME`. One tool reads a file with the built-in `open(…)` and turns it into lines with the
 * built-in `list(…)`, while a session class elsewhere has a static method called `list` that
 * writes an index file, and a store module a function called `open` that appends to a log.
 */
const FILES: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "deck"\nversion = "0.1.0"\ndependencies = ["openai", "httpx"]\n\n[project.scripts]\ndeck = "agent.main:main"\n',
  'agent/__init__.py': '',
  'agent/tools/__init__.py': '',
  'agent/tools/base.py': `from abc import ABC, abstractmethod


class CallableTool(ABC):
    name: str = ""
    description: str = ""

    @abstractmethod
    async def __call__(self, params: dict) -> str:
        ...
`,
  'agent/tools/fetch.py': `from typing import override

import httpx

from agent.tools.base import CallableTool

NAME = "FetchURL"


class Fetch(CallableTool):
    name: str = NAME
    description: str = "Fetch a web page."

    @override
    async def __call__(self, params: dict) -> str:
        return httpx.get(params["url"]).text
`,
  'agent/tools/shell.py': `import subprocess
from typing import override

from agent.tools.base import CallableTool

NAME = "Shell"


class Shell(CallableTool):
    name: str = NAME
    description: str = "Run a shell command."

    @override
    async def __call__(self, params: dict) -> str:
        done = subprocess.run(params["command"], shell=True, capture_output=True, text=True)
        return done.stdout
`,
  'agent/tools/notes.py': `from typing import override

from agent.tools.base import CallableTool


class ReadNotes(CallableTool):
    name: str = "ReadNotes"
    description: str = "Read the notes file."

    @override
    async def __call__(self, params: dict) -> str:
        with open(params["path"], encoding="utf-8") as f:
            lines = list(f)
        return "".join(lines[-20:])
`,
  'agent/session.py': `import json
import os


class Session:
    @staticmethod
    def list(work_dir: str) -> list:
        index = os.path.join(work_dir, "sessions.json")
        with open(index, "w", encoding="utf-8") as f:
            json.dump([], f)
        return []
`,
  'agent/store.py': `import builtins
from pathlib import Path


def open(path: str, mode: str = "r"):
    Path(path + ".log").write_text(mode, encoding="utf-8")
    return builtins.open(path, mode, encoding="utf-8")
`,
  'agent/main.py': `import asyncio
import json

from openai import OpenAI

from agent import store
from agent.session import Session
from agent.tools.fetch import Fetch
from agent.tools.notes import ReadNotes
from agent.tools.shell import Shell

TOOLS = {t.name: t for t in (Shell(), Fetch(), ReadNotes())}


def main() -> None:
    client = OpenAI()
    Session.list(".")
    store.open("notes.txt").close()
    messages = [{"role": "user", "content": input("> ")}]
    schemas = [{"type": "function", "function": {"name": t.name, "description": t.description, "parameters": {"type": "object"}}} for t in TOOLS.values()]
    while True:
        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=schemas)
        msg = reply.choices[0].message
        if not msg.tool_calls:
            print(msg.content)
            return
        for call in msg.tool_calls:
            out = asyncio.run(TOOLS[call.function.name](json.loads(call.function.arguments)))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": out})
`,
};

let audited: ReturnType<typeof auditDeck> | undefined;
const deck = () => (audited ??= auditDeck());

async function auditDeck() {
  const dir = join(mkdtempSync(join(tmpdir(), 'class-tools-')), 'deck');
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return audit(dir, { rubricDir: RUBRIC, factsCache: false });
}

describe('tool classes with a decorated run method', () => {
  it('are tools, named by their own module’s constant, with their handlers followed; an abstract base is none', async () => {
    const report = await deck();
    const tools = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t]));
    expect(Object.keys(tools).sort()).toEqual(['FetchURL', 'ReadNotes', 'Shell']);
    expect(tools['Shell']!.site.path).toBe('agent/tools/shell.py');
    expect(tools['FetchURL']!.site.path).toBe('agent/tools/fetch.py');
    expect(tools['Shell']!.handler?.path).toBe('agent/tools/shell.py');
    expect(tools['Shell']!.reaches).toEqual(['exec']);
    expect(tools['FetchURL']!.reaches).toEqual(['net']);
  });

  it('read a bare `open(…)` or `list(…)` as the built-in, not a function or static method of that name elsewhere', async () => {
    const report = await deck();
    const notes = report.agent!.tools.find((t) => t.name === 'ReadNotes')!;
    expect(notes.reaches).toEqual(['read']);
    expect(notes.paths.map((p) => p.sink.path)).toEqual(['agent/tools/notes.py']);
  });

  it('are not gated by the prompt that reads the user’s next message', async () => {
    const report = await deck();
    const shell = report.agent!.tools.find((t) => t.name === 'Shell')!;
    expect(shell.status).toBe('ungated');
    expect(shell.paths.every((p) => p.gate === null)).toBe(true);
    expect(report.criteria.filter((c) => c.cap !== null).map((c) => c.id)).toEqual(expect.arrayContaining(['C2', 'C4']));
  });
});

/**
 * A TypeScript tool whose handler runs its command through a class's static method
 * (`ShellService.execute(…)`), in a repository where two other classes have an `execute` method
 * too: the call on the class by its name runs that class's method.
 */
const STATIC_CALL: Record<string, string> = {
  'package.json': `{ "name": "statc", "version": "0.1.0", "main": "src/main.ts", "dependencies": { "openai": "^4.0.0" } }
`,
  'src/services/shell.ts': `import { spawnSync } from 'node:child_process';

export class ShellService {
  static execute(command: string): string {
    return spawnSync('sh', ['-c', command], { encoding: 'utf8' }).stdout;
  }
}
`,
  'src/jobs/queue.ts': `export class JobQueue {
  private jobs: string[] = [];
  execute(job: string): number {
    this.jobs.push(job);
    return this.jobs.length;
  }
}
`,
  'src/plugins/host.ts': `export class PluginHost {
  execute(name: string): string {
    return \`plugin \${name}\`;
  }
}
`,
  'src/tools/shell.ts': `import { ShellService } from '../services/shell';

export class ShellTool {
  name = 'run_shell';
  description = 'Run a shell command.';
  parameters = { type: 'object', properties: { command: { type: 'string' } } };

  async execute(args: { command: string }): Promise<string> {
    return ShellService.execute(args.command);
  }
}
`,
  'src/main.ts': `import OpenAI from 'openai';
import { JobQueue } from './jobs/queue';
import { PluginHost } from './plugins/host';
import { ShellTool } from './tools/shell';

const tools = [new ShellTool()];

export async function main(prompt: string): Promise<void> {
  const client = new OpenAI();
  new JobQueue().execute('start');
  new PluginHost().execute('hello');
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }];
  for (let i = 0; i < 10; i++) {
    const reply = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })) });
    const msg = reply.choices[0]!.message;
    if (!msg.tool_calls?.length) return;
    for (const call of msg.tool_calls) {
      const tool = tools.find((t) => t.name === call.function.name)!;
      messages.push({ role: 'tool', tool_call_id: call.id, content: await tool.execute(JSON.parse(call.function.arguments)) });
    }
  }
}
`,
};

describe('a call on a class by its name', () => {
  it('runs that class’s own method, however many classes define one of that name', async () => {
    const report = await audit(writeTree('static-call', STATIC_CALL), { rubricDir: RUBRIC, factsCache: false });
    const shell = report.agent!.tools.find((t) => t.name === 'run_shell')!;
    expect(shell.reaches).toEqual(['exec']);
    expect(shell.paths[0]!.sink.path).toBe('src/services/shell.ts');
    expect(report.agent!.tools.filter((t) => t.construct === 'code runner')).toEqual([]);
  });
});

/**
 * Tools split in two classes, as gemini-cli writes them: a declarative tool that holds the name
 * (`static readonly Name = SHELL_TOOL_NAME`, a constant of another module) and creates an
 * invocation, and the invocation class whose `execute` does the work.
 */
const DECLARED: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'declared', version: '0.1.0', main: 'src/main.ts', dependencies: { openai: '^4.0.0' } }),
  'src/tool-names.ts': `export const SHELL_TOOL_NAME = 'run_shell_command';\n`,
  'src/tools/shell.ts': `import { spawnSync } from 'node:child_process';
import { SHELL_TOOL_NAME } from '../tool-names';

abstract class BaseToolInvocation<P> {
  constructor(protected readonly params: P) {}
  abstract execute(): Promise<string>;
}

class ShellToolInvocation extends BaseToolInvocation<{ command: string }> {

  async execute(): Promise<string> {
    return spawnSync('sh', ['-c', this.params.command], { encoding: 'utf8' }).stdout;
  }
}

export class ShellTool {
  static readonly Name = SHELL_TOOL_NAME;
  readonly description = 'Run a shell command.';

  createInvocation(params: { command: string }): ShellToolInvocation {
    const name = 'unused';
    return new ShellToolInvocation(params);
  }
}
`,
  'src/main.ts': `import OpenAI from 'openai';
import { ShellTool } from './tools/shell';

export async function main(prompt: string): Promise<void> {
  const client = new OpenAI();
  const shell = new ShellTool();
  const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: prompt }], tools: [{ type: 'function', function: { name: ShellTool.Name, description: shell.description, parameters: { type: 'object' } } }] });
  for (const call of reply.choices[0]!.message.tool_calls ?? []) console.log(await shell.createInvocation(JSON.parse(call.function.arguments)).execute());
}
`,
};

describe('a tool class that another class creates', () => {
  it('goes by the name its creator holds, read through the constant', async () => {
    const report = await audit(writeTree('declared-tool', DECLARED), { rubricDir: RUBRIC, factsCache: false });
    const tools = report.agent!.tools.filter((t) => t.construct === 'class-tool');
    expect(tools.map((t) => [t.name, t.reaches])).toEqual([['run_shell_command', ['exec']]]);
  });
});

/**
 * A write tool that writes through an interface (`this.files().writeTextFile(…)`): two
 * implementations sit in one folder of its own package, a third in another package of the
 * monorepo (an editor integration's). The call may run either of its own package's two.
 */
const IMPLEMENTATIONS: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
  'packages/core/package.json': JSON.stringify({ name: '@mono/core', version: '0.1.0', main: 'src/main.ts', dependencies: { openai: '^4.0.0' } }),
  'packages/core/src/services/files.ts': `import { promises as fs } from 'node:fs';

export interface FileService {
  writeTextFile(path: string, content: string): Promise<void>;
}

export class LocalFileService implements FileService {
  async writeTextFile(path: string, content: string): Promise<void> {
    await fs.writeFile(path, content, 'utf-8');
  }
}
`,
  'packages/core/src/services/memoryFiles.ts': `import type { FileService } from './files';

export class MemoryFileService implements FileService {
  private readonly files = new Map<string, string>();
  async writeTextFile(path: string, content: string): Promise<void> {
    this.files.set(path, content);
  }
}
`,
  'packages/core/src/tools/write.ts': `import type { FileService } from '../services/files';

export class WriteFileTool {
  name = 'write_file';
  description = 'Write a file.';
  constructor(private readonly files: () => FileService) {}

  async execute(args: { path: string; content: string }): Promise<string> {
    await this.files().writeTextFile(args.path, args.content);
    return 'written';
  }
}
`,
  'packages/core/src/main.ts': `import OpenAI from 'openai';
import { LocalFileService } from './services/files';
import { WriteFileTool } from './tools/write';

export async function main(prompt: string): Promise<void> {
  const client = new OpenAI();
  const tool = new WriteFileTool(() => new LocalFileService());
  const reply = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: prompt }], tools: [{ type: 'function', function: { name: tool.name, description: tool.description, parameters: { type: 'object' } } }] });
  for (const call of reply.choices[0]!.message.tool_calls ?? []) await tool.execute(JSON.parse(call.function.arguments));
}
`,
  'packages/ide/package.json': JSON.stringify({ name: '@mono/ide', version: '0.1.0', main: 'src/ideFiles.ts' }),
  'packages/ide/src/ideFiles.ts': `export class IdeFileService {
  constructor(private readonly send: (method: string, params: unknown) => Promise<void>) {}
  async writeTextFile(path: string, content: string): Promise<void> {
    await this.send('fs/write_text_file', { path, content });
  }
}
`,
};

describe('a call through an interface', () => {
  it('may run each implementation in one folder of the caller’s own package, whatever another package implements', async () => {
    const report = await audit(writeTree('implementations', IMPLEMENTATIONS), { rubricDir: RUBRIC, factsCache: false });
    const write = report.agent!.tools.find((t) => t.name === 'write_file')!;
    expect(write.reaches).toEqual(['write']);
    expect(write.paths.map((p) => p.sink.path)).toEqual(['packages/core/src/services/files.ts']);
  });
});

/**
 * A setup menu next to a tool table, both tables of handlers by name: the menu is looked up by the
 * answer to a selection prompt, the tool table by the name the model gives.
 */
const MENU: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "menu"\nversion = "0.1.0"\ndependencies = ["openai", "questionary", "httpx"]\n\n[project.scripts]\nmenu = "menu.main:main"\n',
  'menu/__init__.py': '',
  'menu/wizard.py': `import os

import questionary


def set_key() -> None:
    with open(os.path.expanduser("~/.menu/key"), "w", encoding="utf-8") as f:
        f.write(questionary.password("API key:").ask() or "")


def reset() -> None:
    os.remove(os.path.expanduser("~/.menu/key"))


SETUP_ACTIONS = {"Set the API key": set_key, "Reset": reset}


def setup() -> None:
    choice = questionary.select("What to set up?", choices=list(SETUP_ACTIONS)).ask()
    action = SETUP_ACTIONS.get(choice)
    if action:
        action()
`,
  'menu/main.py': `import json
import subprocess

import httpx
from openai import OpenAI

from menu.wizard import setup


def run_shell(command: str) -> str:
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


def fetch(url: str) -> str:
    return httpx.get(url).text


TOOL_HANDLERS = {"run_shell": run_shell, "fetch": fetch}


def main() -> None:
    setup()
    client = OpenAI()
    messages = [{"role": "user", "content": "hello"}]
    reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=[{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in TOOL_HANDLERS])
    for call in reply.choices[0].message.tool_calls or []:
        print(TOOL_HANDLERS[call.function.name](**json.loads(call.function.arguments)))
`,
};

describe('a table of handlers a person picks from', () => {
  it('is a menu, no tool: only the table the model’s tool name indexes lists tools', async () => {
    const report = await audit(writeTree('menu-table', MENU), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.filter((t) => t.construct === 'dispatch-map').map((t) => t.name).sort()).toEqual(['fetch', 'run_shell']);
  });
});

/**
 * Two tool classes that write files through one helper whose path is its parameter. `NotesTool` is
 * given the model's arguments as a parameter and writes a session file under a folder the harness
 * gave it at construction; `SaveAsTool` is a pydantic-style tool whose fields are the model's
 * arguments, its run method taking none, and writes where its `path` field says.
 */
const FIELDS: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "fields"\nversion = "0.1.0"\ndependencies = ["openai", "pydantic"]\n\n[project.scripts]\nfields = "fields.main:main"\n',
  'fields/__init__.py': '',
  'fields/io.py': `import json


def write_json(path: str, data: dict) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
`,
  'fields/tools.py': `import os

from pydantic import BaseModel

from fields.io import write_json


class NotesTool:
    name = "notes"
    description = "Keep a note for this session."

    def __init__(self, session_dir: str):
        self._session_dir = session_dir

    def __call__(self, params: dict) -> str:
        write_json(os.path.join(self._session_dir, "notes.json"), {"note": params["note"]})
        return "noted"


class SaveAsTool(BaseModel):
    name: str = "save_as"
    path: str
    content: str

    def run(self) -> str:
        write_json(self.path, {"content": self.content})
        return "saved"
`,
  'fields/main.py': `import json

from openai import OpenAI

from fields.tools import NotesTool, SaveAsTool


def main() -> None:
    client = OpenAI()
    notes = NotesTool("/tmp/session")
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}], tools=[{"type": "function", "function": {"name": "notes", "parameters": {"type": "object"}}}, {"type": "function", "function": {"name": "save_as", "parameters": SaveAsTool.model_json_schema()}}])
    for call in reply.choices[0].message.tool_calls or []:
        args = json.loads(call.function.arguments)
        print(notes(args) if call.function.name == "notes" else SaveAsTool(**args).run())
`,
};

describe('a tool object’s fields', () => {
  it('hold the model’s arguments only where its run method is given none', async () => {
    const report = await audit(writeTree('tool-fields', FIELDS), { rubricDir: RUBRIC, factsCache: false });
    const reach = Object.fromEntries(report.agent!.tools.filter((t) => t.construct === 'class-tool').map((t) => [t.name, t.reaches]));
    expect(reach).toEqual({ notes: ['own-write'], save_as: ['write'] });
  });
});

/**
 * Tool classes that name their tool through a read-only property or a name method (Python) or a
 * getter (TypeScript) returning a literal or a module constant, or through an entry of a table of
 * names (`TOOL_NAMES.FILES.SAVE`), as many agents write them; one getter computes its name.
 */
const GETTERS: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "props"\nversion = "0.1.0"\ndependencies = ["openai"]\n\n[project.scripts]\nprops = "props.main:main"\n',
  'props/__init__.py': '',
  'props/tools.py': `import os
import subprocess

EXEC_NAME = "exec"


class WriteFileTool:
    @property
    def name(self) -> str:
        """What the model calls it."""
        return "write_file"

    def execute(self, path: str, content: str) -> str:
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)
        return "written"


class ExecTool:
    @property
    def name(self):
        return EXEC_NAME

    def execute(self, command: str) -> str:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


class RemoveTool:
    def get_name(self) -> str:
        return "remove_file"

    def execute(self, path: str) -> str:
        os.remove(path)
        return "removed"
`,
  'props/main.py': `import json

from openai import OpenAI

from props.tools import ExecTool, RemoveTool, WriteFileTool


def main() -> None:
    tools = {t.name: t for t in (WriteFileTool(), ExecTool())}
    tools["remove_file"] = RemoveTool()
    reply = OpenAI().chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}], tools=[{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in tools])
    for call in reply.choices[0].message.tool_calls or []:
        print(tools[call.function.name].execute(**json.loads(call.function.arguments)))
`,
  'web/package.json': '{ "name": "getters", "version": "0.1.0", "dependencies": { "openai": "^4.0.0" } }\n',
  'web/src/tools.ts': `import { writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { TOOL_NAMES } from './names';

export class SaveTool {
  name = TOOL_NAMES.FILES.SAVE;

  execute(args: { path: string; text: string }): string {
    writeFileSync(args.path, args.text);
    return 'saved';
  }
}

export class RunTool {
  private prefix = 'run';
  get name() { return \`\${this.prefix}_command\`; }
  execute(args: { command: string }): string {
    return execSync(args.command).toString();
  }
}
`,
  'web/src/names.ts': `export const TOOL_NAMES = {
  // what the model calls each tool
  FILES: { SAVE: 'save_file', OPEN: 'open_file' },
  SHELL: { RUN: 'run_command' },
  messages: { greeting: 'hello there' },
} as const;

export class LogTool {
  get name() {
    return 'log';
  }
  execute(args: { line: string }): string {
    return args.line;
  }
}
`,
  'web/src/main.ts': `import OpenAI from 'openai';
import { LogTool } from './names';
import { RunTool, SaveTool } from './tools';

const tools = [new SaveTool(), new RunTool(), new LogTool()];

export async function main(prompt: string): Promise<void> {
  const reply = await new OpenAI().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: prompt }], tools: tools.map((t) => ({ type: 'function' as const, function: { name: t.name, parameters: {} } })) });
  for (const call of reply.choices[0]!.message.tool_calls ?? []) {
    console.log(tools.find((t) => t.name === call.function.name)!.execute(JSON.parse(call.function.arguments)));
  }
}
`,
};

describe('a tool class named by a property or getter', () => {
  it('goes by the literal or constant (a table entry too) it returns or holds, and by its type where it computes the name', async () => {
    const report = await audit(writeTree('name-getters', GETTERS), { rubricDir: RUBRIC, factsCache: false });
    const reach = Object.fromEntries(report.agent!.tools.filter((t) => t.construct === 'class-tool').map((t) => [t.name, t.reaches]));
    expect(reach).toEqual({ write_file: ['write'], exec: ['exec'], remove_file: ['write'], save_file: ['write'], RunTool: ['exec'], log: [] });
  });
});
