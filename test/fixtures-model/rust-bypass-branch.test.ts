import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Rust harness whose executor asks the user before any tool that is not read-only, and whose
 * loop takes the shell out of that path to stream its output: `if name == SHELL_TOOL_NAME {
 * shell.execute_streaming(…) } else { executor.execute(…) }`. The branch is a second way to the
 * shell with no ask on it, so the shell runs unasked (the C2 cap fires). The shell's streaming
 * method starts the program its helper picked (`Command::new(&prog)` with `-c` and the command
 * among the arguments it returns): a command, not a fixed program. Without the branch, every call
 * goes through the executor's ask.
 */
const files = (bypass: boolean): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "crab"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ntokio = { version = "1", features = ["full"] }\nserde_json = "1"\n',
  'src/tools.rs': `use serde_json::Value;

pub const SHELL_TOOL_NAME: &str = "Shell";

pub trait Tool {
    fn name(&self) -> &'static str;
    fn execute(&self, input: Value) -> String;
}

fn shell_invocation(command: String) -> (String, Vec<String>) {
    ("bash".to_string(), vec!["-c".to_string(), command])
}

pub struct ShellTool;

impl Tool for ShellTool {
    fn name(&self) -> &'static str {
        SHELL_TOOL_NAME
    }

    fn execute(&self, input: Value) -> String {
        let command = input["command"].as_str().unwrap_or("").to_owned();
        let (prog, args) = shell_invocation(command);
        let out = std::process::Command::new(&prog).args(&args).output().expect("spawn");
        String::from_utf8_lossy(&out.stdout).to_string()
    }
}

impl ShellTool {
    pub async fn execute_streaming(&self, input: Value) -> String {
        let command = input["command"].as_str().unwrap_or("").to_owned();
        let (prog, args) = shell_invocation(command);
        let out = tokio::process::Command::new(&prog).args(&args).output().await.expect("spawn");
        String::from_utf8_lossy(&out.stdout).to_string()
    }
}
`,
  'src/executor.rs': `use serde_json::Value;

use crate::tools::{ShellTool, Tool};

pub struct Executor;

impl Executor {
    pub async fn execute(&self, tool_name: &str, input: Value) -> String {
        let tool = ShellTool;
        if !ask_permission(tool_name, &input) {
            return "denied".to_string();
        }
        tool.execute(input)
    }
}

fn ask_permission(tool_name: &str, input: &Value) -> bool {
    println!("Allow {tool_name} {input}? [y/N]");
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer).expect("stdin");
    answer.trim() == "y"
}
`,
  'src/main.rs': `mod executor;
mod tools;

use executor::Executor;
use tools::{ShellTool, SHELL_TOOL_NAME};

#[tokio::main]
async fn main() {
    let client = openai::Client::new();
    let executor = Executor;
    let reply = client.chat_completion("gpt-4o", "hello");
    for call in reply.tool_calls {
        let name = call.name.clone();
        let input: serde_json::Value = serde_json::from_str(&call.arguments).unwrap();
${bypass ? `        let out = if name == SHELL_TOOL_NAME {
            let shell = ShellTool;
            shell.execute_streaming(input).await
        } else {
            executor.execute(&name, input).await
        };` : '        let out = executor.execute(&name, input).await;'}
        println!("{out}");
    }
}
`,
});

describe('a tool taken out of the gated executor by a branch on its name', () => {
  it('is a second, unasked way to the shell: listed ungated, and the C2 cap fires', async () => {
    const { tools, caps } = await auditTools('crab-bypass', files(true));
    expect(tools.Shell).toMatchObject({ construct: 'dispatch-branch', reaches: ['exec'], status: 'ungated' });
    expect(caps).toContain('C2');
  });

  it('without the branch every call goes through the ask', async () => {
    const { tools, caps } = await auditTools('crab-gated', files(false));
    expect(Object.values(tools).filter((t) => t.status === 'ungated')).toEqual([]);
    expect(caps).not.toContain('C2');
  });
});
