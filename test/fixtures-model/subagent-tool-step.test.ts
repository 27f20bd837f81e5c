import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Rust TUI agent whose loop asks the user through the UI before each tool call (it posts a
 * permission request with a reply channel and waits for the decision) and then hands the call to
 * a helper named for running it, `execute_tool`, which matches the tool's name. One arm of that
 * match starts a sub-agent: a new loop whose `chat` is the same function, so `execute_tool` waits
 * for the user too, but only through the loop that calls it. The ask in the loop stands before
 * every tool the helper runs.
 */
const files = (asks: boolean): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "tui-agent"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nreqwest = "0.12"\ntokio = "1"\n',
  'src/tools/mod.rs': 'pub mod bash;\npub mod write_file;\n',
  'src/tools/bash.rs': `use serde::Deserialize;
use tokio::process::Command;

#[derive(Deserialize)]
pub struct BashArgs {
    pub command: String,
}

pub struct BashCommand;

impl Tool for BashCommand {
    const NAME: &'static str = "bash";
    type Args = BashArgs;
    type Output = String;

    async fn call(&self, args: Self::Args) -> anyhow::Result<String> {
        let out = Command::new("bash").arg("-c").arg(&args.command).output().await?;
        Ok(String::from_utf8_lossy(&out.stdout).to_string())
    }
}
`,
  'src/tools/write_file.rs': `use serde::Deserialize;

#[derive(Deserialize)]
pub struct WriteArgs {
    pub file_path: String,
    pub content: String,
}

pub struct WriteFile;

impl Tool for WriteFile {
    const NAME: &'static str = "write_file";
    type Args = WriteArgs;
    type Output = String;

    async fn call(&self, args: Self::Args) -> anyhow::Result<String> {
        tokio::fs::write(&args.file_path, &args.content).await?;
        Ok(format!("wrote {}", args.file_path))
    }
}
`,
  'src/tui.rs': `use tokio::sync::oneshot;

pub enum PermissionDecision {
    ApproveOnce,
    Reject,
}

pub enum TuiEvent {
    PermissionRequest { tool_name: String, args: String, response_tx: oneshot::Sender<PermissionDecision> },
    Output(String),
}
`,
  'src/agent_loop.rs': `use crate::tools::{bash::BashCommand, write_file::WriteFile};
use crate::tui::{PermissionDecision, TuiEvent};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

pub struct AgentLoop {
    tui_tx: mpsc::Sender<TuiEvent>,
    client: reqwest::Client,
}

impl AgentLoop {
    pub fn new(tui_tx: mpsc::Sender<TuiEvent>) -> Self {
        Self { tui_tx, client: reqwest::Client::new() }
    }

    async fn request_permission(&self, tool_name: &str, args: &Value) -> bool {
        let (response_tx, response_rx) = oneshot::channel();
        let event = TuiEvent::PermissionRequest { tool_name: tool_name.to_string(), args: args.to_string(), response_tx };
        if self.tui_tx.send(event).await.is_err() {
            return false;
        }
        match response_rx.await {
            Ok(PermissionDecision::ApproveOnce) => true,
            Ok(PermissionDecision::Reject) => false,
            Err(_) => false,
        }
    }

    async fn run_subagent(&self, args: Value) -> anyhow::Result<String> {
        let mut sub = AgentLoop::new(self.tui_tx.clone());
        Box::pin(sub.chat(args["instructions"].as_str().unwrap_or_default())).await
    }

    async fn execute_tool(&self, name: &str, args: Value) -> anyhow::Result<String> {
        match name {
            "bash" => BashCommand.call(serde_json::from_value(args)?).await,
            "write_file" => WriteFile.call(serde_json::from_value(args)?).await,
            "task" => self.run_subagent(args).await,
            _ => Err(anyhow::anyhow!("unknown tool {name}")),
        }
    }

    pub async fn chat(&mut self, input: &str) -> anyhow::Result<String> {
        let mut messages = vec![serde_json::json!({ "role": "user", "content": input })];
        loop {
            let reply: Value = self
                .client
                .post("https://api.openai.com/v1/chat/completions")
                .json(&serde_json::json!({ "model": "gpt-4o", "messages": messages }))
                .send()
                .await?
                .json()
                .await?;
            let message = reply["choices"][0]["message"].clone();
            let Some(calls) = message["tool_calls"].as_array() else {
                return Ok(message["content"].as_str().unwrap_or_default().to_string());
            };
            for call in calls {
                let name = call["function"]["name"].as_str().unwrap_or_default();
                let args: Value = serde_json::from_str(call["function"]["arguments"].as_str().unwrap_or("{}"))?;
${asks ? `                let approved = self.request_permission(name, &args).await;
                if !approved {
                    return Err(anyhow::anyhow!("cancelled by the user"));
                }
` : ''}                let output = self.execute_tool(name, args).await?;
                messages.push(serde_json::json!({ "role": "tool", "tool_call_id": call["id"], "content": output }));
            }
        }
    }
}
`,
  'src/main.rs': `mod agent_loop;
mod tools;
mod tui;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    tokio::spawn(async move {
        while let Some(event) = rx.recv().await {
            if let tui::TuiEvent::PermissionRequest { response_tx, .. } = event {
                let _ = response_tx.send(tui::PermissionDecision::ApproveOnce);
            }
        }
    });
    let mut agent = agent_loop::AgentLoop::new(tx);
    let prompt = std::env::args().nth(1).unwrap_or_default();
    println!("{}", agent.chat(&prompt).await?);
    Ok(())
}
`,
});

describe('an ask in the loop before a tool step that can start a sub-agent of the same loop', () => {
  it('gates every tool the step runs', async () => {
    const { tools, caps } = await auditTools('tui-subagent-asks', files(true));
    expect([tools.BashCommand?.gated, tools.WriteFile?.gated]).toEqual([true, true]);
    expect(caps).not.toContain('C2');
  });

  it('leaves them ungated where the loop asks nothing', async () => {
    const { tools, caps } = await auditTools('tui-subagent-unasked', files(false));
    expect([tools.BashCommand?.gated, tools.WriteFile?.gated]).toEqual([false, false]);
    expect(caps).toContain('C2');
  });
});
