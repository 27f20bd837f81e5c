import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Rust terminal UI whose key loop reads key presses (crossterm's `event::read()`) to edit the
 * user's message, and on Enter hands it to the agent, which runs the model's tools unasked. The
 * key read is the chat's input, not an ask before a tool: neither the message taken out of the
 * input with a turbofish (`drain(..).collect::<String>()`) nor a terminal macro named like a
 * handler (`execute!(stdout, Clear(…))`) is a call that runs a tool.
 */
const files = (after: string): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "rct"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ncrossterm = "0.27"\ntokio = { version = "1", features = ["full"] }\n',
  'src/agent.rs': `use std::process::Command;

pub enum Tool {
    Shell { command: String },
}

impl Tool {
    pub fn execute(&self) -> Result<String, std::io::Error> {
        match self {
            Tool::Shell { command } => {
                let out = Command::new("sh").arg("-c").arg(command).output()?;
                Ok(String::from_utf8_lossy(&out.stdout).to_string())
            }
        }
    }
}

// (A second type with a method of that name: a call of \`execute\` is not one definition's.)
pub struct Plan;

impl Plan {
    pub fn execute(&self) -> String {
        "planned".to_string()
    }
}

pub struct Agent;

impl Agent {
    pub async fn run(&self, input: String) -> String {
        let client = openai::Client::new();
        let reply = client.chat_completion("gpt-4o", &input);
        let mut out = String::new();
        for call in reply.tool_calls {
            let tool = Tool::Shell { command: call.arguments };
            out.push_str(&tool.execute().unwrap_or_default());
        }
        out
    }
}
`,
  'src/main.rs': `mod agent;

use crossterm::event::{self, Event, KeyCode};
use crossterm::execute;
use crossterm::terminal::{Clear, ClearType};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let agent = agent::Agent;
    let mut input: Vec<char> = Vec::new();
    let mut stdout = std::io::stdout();
    loop {
        if let Event::Key(key) = event::read()? {
            match key.code {
                KeyCode::Char(c) => input.push(c),
                KeyCode::Enter => {
${after}
                    let reply = agent.run(message).await;
                    println!("{reply}");
                }
                KeyCode::Esc => return Ok(()),
                _ => {}
            }
        }
    }
}
`,
});

describe("a Rust terminal UI's key loop before the agent's turn", () => {
  it.each([
    ['the message taken out with a turbofish', '                    let message = input.drain(..).collect::<String>();'],
    ['a terminal macro named like a handler', '                    execute!(stdout, Clear(ClearType::All))?;\n                    let message: String = input.drain(..).collect();'],
  ])('is no ask before the tool (%s): the shell runs unasked', async (_what, after) => {
    const { tools, caps } = await auditTools('rct', files(after));
    const shell = Object.values(tools).find((t) => t.reaches.includes('exec'));
    expect(shell, Object.keys(tools).join(', ')).toMatchObject({ status: 'ungated' });
    expect(caps).toContain('C2');
  });
});
