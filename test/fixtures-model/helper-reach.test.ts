import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * What a tool reaches through a helper module. A function imported under another name (`from client
 * import send as client_send`, `import { send as clientSend }`, `use crate::client::send as
 * client_send`) runs the definition of its own name: the tool that calls the alias reaches what that
 * definition reaches, and the definition counts as used (it was a dead end, and dead code). A
 * command variable bound to an argument list that starts with a fixed program starts that program.
 * An HTTP request whose verb changes what it names (DELETE, PUT, PATCH) changes a remote service.
 */
async function reachOf(name: string, tree: Record<string, string>, tool: string) {
  const run = await auditDetailed(writeTree(name, tree), { rubricDir: RUBRIC, factsCache: false, force: true });
  const found = run.report.agent?.tools.find((t) => t.name === tool);
  if (!found) throw new Error(`no tool ${tool}: ${run.report.agent?.tools.map((t) => t.name).join(', ')}`);
  return found.reaches;
}

const pyServer = (imported: string, called: string) => ({
  'srv/main.py': `from mcp.server.fastmcp import FastMCP
from client import ${imported}

mcp = FastMCP("demo")


@mcp.tool()
def post_note(text: str) -> str:
    """Post a note."""
    return "ok" if ${called}(text) else "failed"


if __name__ == "__main__":
    mcp.run()
`,
  'srv/client.py': `import requests


def deliver(text):
    return requests.post("http://localhost:8080/notes", json={"text": text}).ok
`,
});

const tsServer = (imported: string, called: string) => ({
  'package.json': '{"name":"alias-demo","version":"1.0.0","type":"module"}\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ${imported} } from './client.js';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.registerTool('remove_note', { description: 'Remove a note', inputSchema: { id: z.string() } }, async ({ id }) => {
  await ${called}(id);
  return { content: [{ type: 'text', text: 'removed' }] };
});
`,
  'src/client.ts': `export async function removeNote(id: string): Promise<void> {
  await fetch(\`http://localhost:8080/notes/\${id}\`, { method: 'GET' });
}
`,
});

describe('a function imported under another name', () => {
  it('Python: the tool calling the alias reaches the request the original sends', async () => {
    expect(await reachOf('alias-py', pyServer('deliver as client_deliver', 'client_deliver'), 'post_note')).toEqual(['net']);
  });

  it('Python: the same import without an alias reached it already (the control)', async () => {
    expect(await reachOf('alias-py-plain', pyServer('deliver', 'deliver'), 'post_note')).toEqual(['net']);
  });

  it('Python: an alias of a name the module does not define leads nowhere', async () => {
    const tree = pyServer('deliver as client_deliver', 'client_deliver');
    tree['srv/client.py'] = tree['srv/client.py']!.replace('def deliver(', 'def dispatch(');
    expect(await reachOf('alias-py-missing', tree, 'post_note')).toEqual([]);
  });

  it('TypeScript: a named import under another name reaches the original', async () => {
    expect(await reachOf('alias-ts', tsServer('removeNote as clientRemove', 'clientRemove'), 'remove_note')).toEqual(['net']);
  });

  it('TypeScript: the plain named import (the control)', async () => {
    expect(await reachOf('alias-ts-plain', tsServer('removeNote', 'removeNote'), 'remove_note')).toEqual(['net']);
  });

  it('Rust: `use … as …` reaches the original function', async () => {
    const tree = {
      'Cargo.toml': '[package]\nname = "aliasdemo"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/main.rs': `mod runner;
use crate::runner::run_line as exec_line;

#[tool(description = "Run a command line")]
pub async fn shell(cmd: String) -> String {
    exec_line(&cmd)
}

fn main() {}
`,
      'src/runner.rs': `use std::process::Command;

pub fn run_line(cmd: &str) -> String {
    let out = Command::new("sh").arg("-c").arg(cmd).output().unwrap();
    String::from_utf8_lossy(&out.stdout).to_string()
}
`,
    };
    expect(await reachOf('alias-rs', tree, 'shell')).toEqual(['exec']);
    // The crate root's own module, named without `crate::` (Rust 2018), is the crate's too.
    tree['src/main.rs'] = tree['src/main.rs'].replace('use crate::runner::', 'use runner::');
    expect(await reachOf('alias-rs-mod', tree, 'shell')).toEqual(['exec']);
  });
});

describe('a command variable bound to an argument list', () => {
  const tree = (argv: string, shell = '') => ({
    'server.py': `import subprocess
import sys
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("media")


@mcp.tool()
def convert(src: str) -> str:
    """Convert a file."""
    cmd = ${argv}
    subprocess.run(cmd, check=True${shell})
    return src + ".ogg"


if __name__ == "__main__":
    mcp.run()
`,
  });

  it('starting with a fixed program, it starts that program: a spawn, not a command', async () => {
    expect(await reachOf('argv-program', tree('["ffmpeg", "-y", "-i", src, src + ".ogg"]'), 'convert')).toEqual(['spawn']);
  });

  it('starting with a shell, it runs a command', async () => {
    expect(await reachOf('argv-shell', tree('["bash", "-c", "ffmpeg -i " + src]'), 'convert')).toEqual(['exec']);
  });

  it('starting with the interpreter, it runs code', async () => {
    expect(await reachOf('argv-interpreter', tree('[sys.executable, "-c", src]'), 'convert')).toEqual(['exec']);
  });

  it('starting with a launcher that runs what follows it (`uv run`), it runs a command', async () => {
    expect(await reachOf('argv-launcher', tree('["uv", "run", "python", src]'), 'convert')).toEqual(['exec']);
    expect(await reachOf('argv-java', tree('["java", "-cp", src, "Main"]'), 'convert')).toEqual(['exec']);
  });

  it('with shell=True, whatever the list holds is a command', async () => {
    expect(await reachOf('argv-shell-true', tree('["ffmpeg", "-i", src]', ', shell=True'), 'convert')).toEqual(['exec']);
  });
});

describe('an HTTP request with a verb that changes what it names', () => {
  const ts = (method: string) => {
    const tree = tsServer('removeNote', 'removeNote');
    tree['src/client.ts'] = tree['src/client.ts']!.replace("method: 'GET'", `method: '${method}'`);
    return tree;
  };

  it("TypeScript: fetch with method 'DELETE' changes a remote service", async () => {
    expect(await reachOf('verb-ts-delete', ts('DELETE'), 'remove_note')).toEqual(['net', 'remote']);
  });

  it("TypeScript: fetch with method 'POST' only sends a request (a POST reads as often as it writes)", async () => {
    expect(await reachOf('verb-ts-post', ts('POST'), 'remove_note')).toEqual(['net']);
  });

  it('Python: requests.delete changes a remote service; requests.post only sends', async () => {
    const py = (verb: string) => {
      const tree = pyServer('deliver', 'deliver');
      tree['srv/client.py'] = tree['srv/client.py']!.replace('requests.post(', `requests.${verb}(`);
      return tree;
    };
    expect(await reachOf('verb-py-delete', py('delete'), 'post_note')).toEqual(['net', 'remote']);
    expect(await reachOf('verb-py-post', py('post'), 'post_note')).toEqual(['net']);
  });
});
