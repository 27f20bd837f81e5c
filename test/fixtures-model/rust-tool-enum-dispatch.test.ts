import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Rust CLI agent whose model answers with a JSON decision parsed into an enum of its tools
 * (`#[serde(tag = "tool_name")] enum Tool { RunCommand { command }, WriteFile { … } }`) and runs it
 * in `run_tool`, a `match` on the variant: each arm that reaches something consequential is a tool,
 * named by its variant (reading a file is not). The same enum
 * matched in a helper that only describes a tool (`fn describe(tool: &Tool)`) dispatches nothing.
 */
const files: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "ferric-agent"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nreqwest = { version = "0.12", features = ["json"] }\nserde = { version = "1", features = ["derive"] }\nserde_json = "1"\ntokio = { version = "1", features = ["full"] }\n',
  'src/tools.rs': `use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(tag = "tool_name", content = "parameters")]
pub enum Tool {
    ReadFile { path: String },
    WriteFile { path: String, content: String },
    RunCommand { command: String },
}

pub fn describe(tool: &Tool) -> String {
    match tool {
        Tool::ReadFile { path } => format!("read {path}"),
        Tool::WriteFile { path, .. } => format!("write {path}"),
        Tool::RunCommand { command } => format!("run {command}"),
    }
}

pub async fn run_tool(tool: Tool) -> std::io::Result<String> {
    match tool {
        Tool::ReadFile { path } => tokio::fs::read_to_string(path).await,
        Tool::WriteFile { path, content } => {
            tokio::fs::write(path, content).await?;
            Ok("written".to_string())
        }
        Tool::RunCommand { command } => {
            let out = tokio::process::Command::new("sh").arg("-c").arg(command).output().await?;
            Ok(String::from_utf8_lossy(&out.stdout).to_string())
        }
    }
}
`,
  'src/main.rs': `mod tools;

use serde_json::{json, Value};

async fn decide(client: &reqwest::Client, task: &str) -> reqwest::Result<String> {
    let body = json!({ "model": "gpt-4o", "messages": [{ "role": "user", "content": task }] });
    let reply: Value = client.post("https://api.openai.com/v1/chat/completions").json(&body).send().await?.json().await?;
    Ok(reply["choices"][0]["message"]["content"].as_str().unwrap_or_default().to_string())
}

#[tokio::main]
async fn main() {
    let client = reqwest::Client::new();
    let task = std::env::args().nth(1).unwrap_or_default();
    loop {
        let answer = decide(&client, &task).await.expect("model");
        let Ok(tool) = serde_json::from_str::<tools::Tool>(&answer) else { break };
        println!("{}", tools::describe(&tool));
        println!("{}", tools::run_tool(tool).await.unwrap_or_default());
    }
}
`,
};

describe('a Rust agent that runs an enum of its tools', () => {
  it('offers the variants matched in run_tool as tools, once', async () => {
    const { tools, caps } = await auditTools('ferric-agent', files);
    expect(Object.keys(tools).sort()).toEqual(['run_command', 'write_file']);
    expect(tools['run_command']!.reaches).toContain('exec');
    expect(tools['write_file']!.reaches).toContain('write');
    expect(caps).toContain('C2');
  });
});
