import { describe, expect, it } from 'vitest';
import { auditTools, refusal } from '../helpers.js';

/**
 * MCP servers written by hand, without an SDK: they read JSON-RPC from stdin and dispatch on the
 * method. The branch for `tools/call` serves every tool the server lists (here commands read from
 * a configuration file), so it is the server's tool; a client that only sends `tools/call` offers
 * none, and a server that also defines a tool by name hands the calls on to it.
 */
const rustServer = (ownTool: boolean): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "cmd-mcp"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nserde_json = "1"\nserde_yaml = "0.9"\n',
  'src/server.rs': `use std::collections::HashMap;
use std::process::Command;

use serde_json::{json, Value};

pub struct ToolConfig {
    pub command: String,
    pub description: String,
}

pub struct Server {
    pub tools: HashMap<String, ToolConfig>,
}

impl Server {
    fn execute_command(&self, name: &str, args: Option<&str>) -> String {
        let tool = self.tools.get(name).expect("configured tool");
        let mut cmd = Command::new(&tool.command);
        if let Some(a) = args {
            cmd.args(a.split_whitespace());
        }
        let out = cmd.output().expect("spawn");
        String::from_utf8_lossy(&out.stdout).to_string()
    }

    pub fn handle_request(&self, message: &str) -> Value {
        let request: Value = serde_json::from_str(message).unwrap_or_default();
        let method = request["method"].as_str().unwrap_or("");
        match method {
            "tools/list" => {
                let tools: Vec<Value> = self.tools.iter().map(|(n, t)| json!({ "name": n, "description": t.description })).collect();
                json!({ "tools": tools })
            }
            "tools/call" => {
                let name = request["params"]["name"].as_str().unwrap_or("");
                let args = request["params"]["arguments"]["args"].as_str();
                json!({ "content": [{ "type": "text", "text": self.execute_command(name, args) }] })
            }
            _ => json!({ "error": "Method not found" }),
        }
    }
}
`,
  ...(ownTool
    ? {
        'src/clock.rs': `use serde_json::Value;

pub fn dispatch(tool_name: &str, _args: &Value) -> String {
    match tool_name {
        "delete_file" => {
            std::fs::remove_file("notes.txt").ok();
            "deleted".to_string()
        }
        _ => String::new(),
    }
}
`,
      }
    : {}),
  'src/main.rs': `mod server;
${ownTool ? 'mod clock;\n' : ''}
use std::io::BufRead;

fn main() {
    let server = server::Server { tools: Default::default() };
    for line in std::io::stdin().lock().lines() {
        println!("{}", server.handle_request(&line.unwrap()));
    }
}
`,
});

const pythonServer = {
  'pyproject.toml': '[project]\nname = "shell-mcp"\nversion = "0.1.0"\n',
  'shell_mcp/server.py': `import json
import subprocess
import sys


def run_command(params):
    command = params["arguments"]["command"]
    out = subprocess.run(command, shell=True, capture_output=True, text=True)
    return {"content": [{"type": "text", "text": out.stdout}]}


def handle(request):
    if request["method"] == "tools/list":
        return {"tools": [{"name": "shell", "description": "Run a command"}]}
    elif request["method"] == "tools/call":
        return run_command(request["params"])
    return {"error": "Method not found"}


def main():
    for line in sys.stdin:
        print(json.dumps(handle(json.loads(line))))
`,
};

const pythonClient = {
  'pyproject.toml': '[project]\nname = "mcp-probe"\nversion = "0.1.0"\n',
  'mcp_probe/client.py': `import json
import subprocess


def call(server, name, arguments):
    proc = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    out, _ = proc.communicate(json.dumps(request))
    return json.loads(out)
`,
};

describe('an MCP server written by hand', () => {
  it('offers the branch for tools/call as its tool, reaching the command it runs', async () => {
    const { tools } = await auditTools('cmd-mcp', rustServer(false));
    expect(Object.keys(tools)).toEqual(['tools/call']);
    expect(tools['tools/call']!.construct).toBe('jsonrpc-call-branch');
    expect(tools['tools/call']!.reaches).toContain('exec');
  });

  it('in Python too, where the dispatch is an if on the method', async () => {
    const { tools } = await auditTools('shell-mcp', pythonServer);
    expect(Object.keys(tools)).toEqual(['tools/call']);
    expect(tools['tools/call']!.reaches).toContain('exec');
  });

  it('hands the calls on to a tool the repository names', async () => {
    const { tools } = await auditTools('cmd-mcp-own-tool', rustServer(true));
    expect(Object.keys(tools)).toEqual(['delete_file']);
  });

  it('is not found in a client that only sends tools/call', async () => {
    expect(await refusal('mcp-probe', pythonClient)).toMatch(/no sign of an agent harness/);
  });
});
