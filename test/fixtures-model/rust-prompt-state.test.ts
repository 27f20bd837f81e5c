import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Rust chat agent written as a state machine. Its tools are variants of an enum whose `invoke`
 * hands each call on to the variant's own `invoke` (`Tool::ExecuteCommand(c) => c.invoke()`, a
 * method of an `impl` block, away from its struct, in a folder of its own). Before running the model's tool calls, the
 * dispatch returns a state that hands the turn to the user (`return Ok(ChatState::PromptUser)`)
 * unless the call was accepted; the tools run on a later pass. Unit tests kept in the product file
 * (`#[cfg(test)] mod tests`) call the shell tool directly: they are test code, no caller.
 */
const files = (prompts: boolean): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "quill"\nversion = "0.1.0"\nedition = "2021"\n',
  'src/tools/execute/mod.rs': `use tokio::process::Command;

pub struct ExecuteCommand {
    pub command: String,
}

impl ExecuteCommand {
    pub async fn invoke(&self) -> std::io::Result<String> {
        let out = Command::new("bash").arg("-c").arg(&self.command).output().await?;
        Ok(String::from_utf8_lossy(&out.stdout).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct MockShellTool;

    impl MockShellTool {
        pub async fn invoke(&self, script: &str) -> String {
            let out = Command::new("sh").arg("-c").arg(script).output().await.unwrap();
            String::from_utf8_lossy(&out.stdout).to_string()
        }
    }

    #[tokio::test]
    async fn test_execute_bash_tool() {
        let tool = ExecuteCommand { command: "echo hi".to_string() };
        let out = tool.invoke().await.unwrap();
        std::fs::write("/tmp/quill-test.txt", &out).unwrap();
        assert_eq!(out, "hi\\n");
    }
}
`,
  'src/tools/fs_read.rs': `pub struct FsRead {
    pub path: String,
}

impl FsRead {
    pub async fn invoke(&self) -> std::io::Result<String> {
        tokio::fs::read_to_string(&self.path).await
    }
}
`,
  'src/mcp/client.rs': `pub struct McpClient;

impl McpClient {
    pub async fn invoke(&self, name: &str) -> std::io::Result<String> {
        Ok(name.to_string())
    }
}
`,
  'src/tools/mod.rs': `pub mod execute;
pub mod fs_read;

use execute::ExecuteCommand;
use fs_read::FsRead;

pub enum Tool {
    ExecuteCommand(ExecuteCommand),
    FsRead(FsRead),
}

impl Tool {
    pub async fn invoke(&self) -> std::io::Result<String> {
        match self {
            Tool::ExecuteCommand(execute_command) => execute_command.invoke().await,
            Tool::FsRead(fs_read) => fs_read.invoke().await,
        }
    }
}
`,
  'src/chat.rs': `use crate::tools::Tool;

pub enum ChatState {
    PromptUser,
    ExecuteTools,
    HandleResponse,
}

pub struct QueuedTool {
    pub tool: Tool,
    pub accepted: bool,
}

pub struct ChatSession {
    pub tool_uses: Vec<QueuedTool>,
    pub pending: Option<usize>,
}

impl ChatSession {
    pub async fn tool_use_execute(&mut self) -> Result<ChatState, String> {
        for i in 0..self.tool_uses.len() {
            let queued = &mut self.tool_uses[i];
            if queued.accepted {
                continue;
            }
${prompts ? '            self.pending = Some(i);\n            return Ok(ChatState::PromptUser);\n' : '            queued.accepted = true;\n'}        }
        for queued in &self.tool_uses {
            let out = queued.tool.invoke().await.map_err(|e| e.to_string())?;
            println!("{out}");
        }
        Ok(ChatState::HandleResponse)
    }

    pub async fn handle_input(&mut self, input: &str) -> Result<ChatState, String> {
        if let Some(i) = self.pending.take() {
            if input == "y" {
                self.tool_uses[i].accepted = true;
                return Ok(ChatState::ExecuteTools);
            }
        }
        Ok(ChatState::HandleResponse)
    }
}
`,
  'src/main.rs': `mod chat;
mod mcp;
mod tools;

#[tokio::main]
async fn main() {
    let client = openai::Client::new();
    let reply = client.chat_completion("gpt-4o", "hello").await;
    let mut session = chat::ChatSession { tool_uses: reply.tool_uses, pending: None };
    let _ = session.tool_use_execute().await;
}
`,
});

describe('a Rust state machine that hands the turn to the user before its tools run', () => {
  it('gates the shell tool reached through the enum dispatch: no C2 cap', async () => {
    const report = await audit(writeTree('quill-prompts', files(true)), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'Tool')!;
    expect(tool.reaches).toContain('exec');
    expect(tool.gated).toBe(true);
    expect(tool.paths.find((p) => p.kind === 'exec')!.gate!.site.text).toMatch(/return Ok\(ChatState::PromptUser\)/);
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });

  it('without the prompt state the same path runs unasked, and the C2 cap fires', async () => {
    const report = await audit(writeTree('quill-unasked', files(false)), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'Tool')!;
    expect(tool.reaches).toContain('exec');
    expect(tool.gated).toBe(false);
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it('reads nothing in the inline test module: its write is no sink, its test no caller', async () => {
    const report = await audit(writeTree('quill-tests', files(true)), { rubricDir: RUBRIC, factsCache: false });
    const cited = JSON.stringify(report);
    expect(cited).not.toContain('quill-test.txt');
    expect(cited).not.toContain('test_execute_bash_tool');
    expect(cited).not.toContain('MockShellTool');
    expect(report.agent!.tools.every((t) => t.construct !== 'code runner')).toBe(true);
  });
});
