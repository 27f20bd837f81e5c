import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Rust harness whose shell runner (a command from the model's tool call, run on the host) asks
 * through a single-key menu of its own: a helper that reads one key press with crossterm's
 * `event::read()` and returns it for the caller to match on.
 */
const files = (ask: boolean, inMacro = false): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "keel"\nversion = "0.1.0"\nedition = "2021"\n',
  'src/keys.rs': `use crossterm::event::{self, Event, KeyCode};

pub fn read_key(prompt: &str) -> std::io::Result<char> {
    print!("{prompt}");
    loop {
        if let Event::Key(key) = event::read()? {
            if let KeyCode::Char(c) = key.code {
                return Ok(c);
            }
        }
    }
}
`,
  'src/tools.rs': `use std::process::Command;

use crate::keys::read_key;

pub fn run_shell(command: &str) -> String {
${ask ? '    if read_key(&format!("Run `{command}`? [y/n] ")).unwrap_or(\'n\') != \'y\' {\n        return "denied".to_string();\n    }\n' : ''}    let out = Command::new("sh").arg("-c").arg(command).output().expect("spawn");
    String::from_utf8_lossy(&out.stdout).to_string()
}

pub fn execute_tool(tool_name: &str, args: &str) -> String {
    match tool_name {
        "shell" => run_shell(args),
        _ => "unknown tool".to_string(),
    }
}
`,
  'src/main.rs': `mod keys;
mod tools;

fn main() {
    let client = openai::Client::new();
    let reply = client.chat_completion("gpt-4o", "hello");
    for call in reply.tool_calls {
${inMacro ? '        println!("{}", tools::execute_tool(&call.name, &call.arguments));' : '        let out = tools::execute_tool(&call.name, &call.arguments);\n        println!("{out}");'}
    }
}
`,
});

const harness = (ask: boolean, inMacro = false) => writeTree('keel', files(ask, inMacro));

describe('a Rust tool behind a single-key menu read with crossterm', () => {
  it('runs unasked without the menu: no approval step, and the C2 cap fires', async () => {
    const report = await audit(harness(false), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.find((t) => t.name === 'shell')).toMatchObject({ reaches: ['exec'], gated: false });
    expect(report.criteria.find((c) => c.id === 'C2')!.levels.S).toBe(0);
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it('is gated by the menu, which shows the command', async () => {
    const report = await audit(harness(true), { rubricDir: RUBRIC, factsCache: false });
    const shell = report.agent!.tools.find((t) => t.name === 'shell')!;
    expect(shell).toMatchObject({ reaches: ['exec'], gated: true });
    // Asked before every command, showing it: C2 S L3 (per-call approval with the exact input).
    expect(report.criteria.find((c) => c.id === 'C2')!.levels.S).toBe(3);
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });

  it('is gated by the menu when the answer is bound on a line of its own and matched (rustfmt breaks a long `let` after its `=`)', async () => {
    const tree = files(false);
    tree['src/tools.rs'] = tree['src/tools.rs']!.replace(
      /pub fn run_shell[\s\S]*?\n}\n/,
      `pub fn run_shell(command: &str) -> String {
    let answer =
        read_key(&format!("Run \`{command}\`? [e]xecute / [q]uit: ")).unwrap_or('q');
    match answer {
        'e' => {
            let out = Command::new("sh").arg("-c").arg(command).output().expect("spawn");
            String::from_utf8_lossy(&out.stdout).to_string()
        }
        _ => "denied".to_string(),
    }
}
`,
    );
    const report = await audit(writeTree('keel-wrapped', tree), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.find((t) => t.name === 'shell')).toMatchObject({ reaches: ['exec'], gated: true });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });

  it('is gated by an approval awaited inside tokio::select! (raced against cancellation) whose denial returns', async () => {
    const tree = files(false);
    tree['src/tools.rs'] = tree['src/tools.rs']!
      .replace('use crate::keys::read_key;\n', 'use crate::approval::{Approver, Decision};\n')
      .replace(
        /pub fn execute_tool[\s\S]*$/,
        `pub async fn execute_tool(tool_name: &str, args: &str, approver: &dyn Approver, cancel: &Cancel) -> String {
    let decision = tokio::select! {
        d = approver.request_approval(tool_name, args) => d,
        _ = cancel.cancelled() => Decision::Denied,
    };
    if let Decision::Denied = decision {
        return "denied".to_string();
    }
    match tool_name {
        "shell" => run_shell(args),
        _ => "unknown tool".to_string(),
    }
}
`,
      );
    tree['src/approval.rs'] = `pub enum Decision {
    Approved,
    Denied,
}

#[async_trait::async_trait]
pub trait Approver: Send + Sync {
    async fn request_approval(&self, tool: &str, args: &str) -> Decision;
}
`;
    tree['src/main.rs'] = tree['src/main.rs']!.replace('mod keys;\n', 'mod approval;\nmod keys;\n').replace('tools::execute_tool(&call.name, &call.arguments)', 'tools::execute_tool(&call.name, &call.arguments, &ui, &cancel).await');
    const report = await audit(writeTree('keel-select', tree), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.find((t) => t.name === 'shell')).toMatchObject({ reaches: ['exec'], gated: true });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });

  it("is gated by a prompt library's yes/no built and shown in one chain (inquire's Confirm::new(…).with_default(false).prompt())", async () => {
    const tree = files(false);
    tree['src/tools.rs'] = tree['src/tools.rs']!.replace('use crate::keys::read_key;\n', 'use inquire::Confirm;\n').replace(
      /pub fn run_shell[\s\S]*?\n}\n/,
      `pub fn run_shell(command: &str) -> String {
    let confirm = Confirm::new(&format!("Execute command '{}'?", command))
        .with_default(false)
        .with_help_message("This runs in your shell")
        .prompt();
    match confirm {
        Ok(true) => {}
        _ => return "declined".to_string(),
    }
    let out = Command::new("sh").arg("-c").arg(command).output().expect("spawn");
    String::from_utf8_lossy(&out.stdout).to_string()
}
`,
    );
    const report = await audit(writeTree('keel-inquire', tree), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.find((t) => t.name === 'shell')).toMatchObject({ reaches: ['exec'], gated: true });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });

  it('is followed through a call written inside a macro (println!("{}", tools::execute_tool(…)))', async () => {
    const report = await audit(harness(false, true), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.find((t) => t.name === 'shell')).toMatchObject({ reaches: ['exec'], gated: false });
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });
});
