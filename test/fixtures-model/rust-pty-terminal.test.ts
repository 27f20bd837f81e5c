import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Rust MCP server that hands the model a terminal: its tool dispatch (`match tool_name {
 * "open_terminal" => … }`) starts the command it is given on a pseudo-terminal
 * (`pty::spawn(command, size, input, output)`, from a terminal library). That is a command the
 * model chooses, run on the host unasked: C2 and C4 caps.
 */
const files: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "termmcp"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nht-core = { path = "ht-core" }\nrmcp = "0.3"\nserde_json = "1"\ntokio = { version = "1", features = ["full"] }\n',
  'src/main.rs': `use ht_core::pty;
use serde_json::{json, Value};
use tokio::sync::mpsc;

pub struct Server;

impl Server {
    pub async fn handle_tool_call(&self, tool_name: &str, arguments: Value) -> Result<Value, String> {
        match tool_name {
            "open_terminal" => open_terminal(arguments).await,
            "list_terminals" => Ok(json!([])),
            _ => Err(format!("unknown tool {}", tool_name)),
        }
    }
}

async fn open_terminal(arguments: Value) -> Result<Value, String> {
    let command = arguments["command"].as_str().unwrap_or("bash").to_string();
    let (input_tx, input_rx) = mpsc::channel(16);
    let (output_tx, _output_rx) = mpsc::channel(16);
    let _ = input_tx;
    tokio::spawn(async move {
        let _ = pty::spawn(command, (80, 24), input_rx, output_tx);
    });
    Ok(json!({ "opened": true }))
}

#[tokio::main]
async fn main() {
    let server = Server;
    let _ = server.handle_tool_call("open_terminal", json!({ "command": "bash" })).await;
}
`,
};

describe('a Rust tool that starts a terminal on a pseudo-terminal', () => {
  it('runs the command it is given on the host, unasked', async () => {
    const report = await audit(writeTree('termmcp', files), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'open_terminal');
    expect(tool?.reaches).toContain('exec');
    expect(tool?.status).toBe('ungated');
    const caps = report.criteria.filter((c) => c.cap !== null).map((c) => c.id);
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });
});
