import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Rust workspace whose runtime crate asks through a trait object it is handed (`mut prompter:
 * Option<&mut dyn PermissionPrompter>` … `prompter.decide(&request)`), implemented by the CLI
 * crate with a y/N read from stdin (`impl PermissionPrompter for CliPrompter`), and then runs the
 * tool through the executor it holds (`self.tool_executor.execute(…)`), although its own file
 * defines one executor of its own. The trait's implementation is the ask, and the held executor's
 * call is the dispatch it gates: the shell tool is asked for. Without the implementation (a
 * prompter that always allows), nobody is.
 */
const files = (asks: boolean): Record<string, string> => ({
  'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
  'crates/runtime/Cargo.toml': '[package]\nname = "runtime"\nversion = "0.1.0"\nedition = "2021"\n',
  'crates/runtime/src/lib.rs': `pub trait PermissionPrompter {
    fn decide(&mut self, tool: &str, input: &str) -> bool;
}

pub trait ToolExecutor {
    fn execute(&mut self, name: &str, input: &str) -> String;
}

pub struct EchoExecutor;

impl ToolExecutor for EchoExecutor {
    fn execute(&mut self, _name: &str, input: &str) -> String {
        input.to_string()
    }
}

pub struct Runtime<T: ToolExecutor> {
    tool_executor: T,
}

fn authorize(tool: &str, input: &str, mut prompter: Option<&mut dyn PermissionPrompter>) -> bool {
    match prompter.as_mut() {
        Some(prompter) => prompter.decide(tool, input),
        None => false,
    }
}

impl<T: ToolExecutor> Runtime<T> {
    pub fn new(tool_executor: T) -> Self {
        Self { tool_executor }
    }

    pub fn run_turn(&mut self, prompt: &str, prompter: Option<&mut dyn PermissionPrompter>) -> String {
        let client = openai::Client::new();
        let reply = client.chat_completion("gpt-4o", prompt);
        let mut out = String::new();
        for call in reply.tool_calls {
            if !authorize(&call.name, &call.arguments, prompter) {
                continue;
            }
            out.push_str(&self.tool_executor.execute(&call.name, &call.arguments));
        }
        out
    }
}
`,
  'crates/cli/Cargo.toml': '[package]\nname = "cli"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nruntime = { path = "../runtime" }\n',
  'crates/cli/src/main.rs': `use std::io::{self, Write};
use std::process::Command;

use runtime::{PermissionPrompter, Runtime, ToolExecutor};

struct CliPrompter;

impl PermissionPrompter for CliPrompter {
    fn decide(&mut self, tool: &str, input: &str) -> bool {
${asks ? '        print!("Allow {tool} {input}? [y/N]: ");\n        let _ = io::stdout().flush();\n        let mut answer = String::new();\n        io::stdin().read_line(&mut answer).is_ok() && answer.trim() == "y"' : '        let _ = (tool, input, io::stdout().flush());\n        true'}
    }
}

struct ShellExecutor;

impl ToolExecutor for ShellExecutor {
    fn execute(&mut self, name: &str, input: &str) -> String {
        match name {
            "bash" => {
                let out = Command::new("sh").arg("-c").arg(input).output().expect("spawn");
                String::from_utf8_lossy(&out.stdout).to_string()
            }
            _ => "unknown tool".to_string(),
        }
    }
}

fn main() {
    let mut runtime = Runtime::new(ShellExecutor);
    let mut prompter = CliPrompter;
    let prompt = std::env::args().nth(1).unwrap_or_default();
    println!("{}", runtime.run_turn(&prompt, Some(&mut prompter)));
}
`,
});

describe('an ask through a trait object a Rust runtime is handed', () => {
  it("is the implementation's y/N, standing before the held executor's call: the shell is asked for", async () => {
    const { tools, caps } = await auditTools('claw', files(true));
    const shell = Object.values(tools).find((t) => t.reaches.includes('exec'));
    expect(shell, Object.keys(tools).join(', ')).toMatchObject({ status: 'gated' });
    expect(caps).not.toContain('C2');
  });

  it('with an implementation that allows everything, nobody is asked', async () => {
    const { tools, caps } = await auditTools('claw-open', files(false));
    const shell = Object.values(tools).find((t) => t.reaches.includes('exec'));
    expect(shell, Object.keys(tools).join(', ')).toMatchObject({ status: 'ungated' });
    expect(caps).toContain('C2');
  });
});
