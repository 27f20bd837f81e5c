import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Rust agent that parses the model's reply into an enum of tool calls and dispatches on its
 * variants (`ToolCall::WriteFile(args) => write_file::run(args)`): each arm is a tool named by its
 * variant (`write_file`). The shell arm asks first; the write arm does not, and the approval cap
 * fires. A CLI's subcommand enum (`Commands::Run(args)`) offers the model nothing.
 */
const files: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "qa"\nversion = "0.1.0"\nedition = "2021"\n',
  'src/tools.rs': `use serde::Deserialize;

#[derive(Deserialize)]
pub struct ShellArgs {
    pub command: String,
}

#[derive(Deserialize)]
pub struct WriteArgs {
    pub path: String,
    pub content: String,
}

pub enum ToolCall {
    RunShell(ShellArgs),
    WriteFile(WriteArgs),
}

pub fn parse(name: &str, arguments: serde_json::Value) -> anyhow::Result<ToolCall> {
    Ok(match name {
        "run_shell" => ToolCall::RunShell(serde_json::from_value(arguments)?),
        "write_file" => ToolCall::WriteFile(serde_json::from_value(arguments)?),
        other => anyhow::bail!("unknown tool {}", other),
    })
}

pub fn write_file(args: WriteArgs) -> anyhow::Result<String> {
    std::fs::write(&args.path, args.content)?;
    Ok("written".to_string())
}

pub fn run_shell(args: ShellArgs) -> anyhow::Result<String> {
    print!("Run {}? [y/N] ", args.command);
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    if answer.trim() != "y" {
        return Ok("declined".to_string());
    }
    let out = std::process::Command::new("sh").arg("-c").arg(&args.command).output()?;
    Ok(String::from_utf8_lossy(&out.stdout).to_string())
}
`,
  'src/main.rs': `mod tools;

use tools::ToolCall;

pub enum Commands {
    Run(String),
    Clean,
}

fn housekeeping(command: Commands) -> anyhow::Result<()> {
    match command {
        Commands::Run(script) => {
            std::process::Command::new("sh").arg("-c").arg(&script).status()?;
        }
        Commands::Clean => {}
    }
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    housekeeping(Commands::Run(std::env::var("QA_HOOK").unwrap_or_default()))?;
    let client = reqwest::Client::new();
    let reply: serde_json::Value = client.post("https://api.openai.com/v1/chat/completions").json(&serde_json::json!({"model": "gpt-4o", "tools": []})).send().await?.json().await?;
    for c in reply["choices"][0]["message"]["tool_calls"].as_array().cloned().unwrap_or_default() {
        let call = tools::parse(c["function"]["name"].as_str().unwrap_or_default(), serde_json::from_str(c["function"]["arguments"].as_str().unwrap_or("{}"))?)?;
        let out = match call {
            ToolCall::RunShell(args) => tools::run_shell(args)?,
            ToolCall::WriteFile(args) => tools::write_file(args)?,
        };
        println!("{}", out);
    }
    Ok(())
}
`,
};

/** The same dispatch on an enum of tool names, its variants carrying nothing (`ToolName::WriteFile => {…}`). */
const byName = (): Record<string, string> => ({
  ...files,
  'src/main.rs': files['src/main.rs']!
    .replace('use tools::ToolCall;', 'use tools::ToolCall;\n\npub enum ToolName {\n    RunShell,\n    WriteFile,\n}')
    .replace(
      /let out = match call \{[\s\S]*?\};/,
      'let name = if c["function"]["name"] == "run_shell" { ToolName::RunShell } else { ToolName::WriteFile };\n        let out = match name {\n            ToolName::RunShell => match call { ToolCall::RunShell(args) => tools::run_shell(args)?, _ => String::new() },\n            ToolName::WriteFile => match call { ToolCall::WriteFile(args) => tools::write_file(args)?, _ => String::new() },\n        };',
    ),
});

describe('a Rust agent dispatching on an enum of tool calls', () => {
  it('reads the arms of an enum of tool names whose variants carry nothing', async () => {
    const tree = byName();
    expect(tree['src/main.rs']).toContain('ToolName::WriteFile =>');
    const { tools } = await auditTools('rust-tool-name-enum', tree);
    expect(tools.write_file?.reaches, Object.keys(tools).join(', ')).toContain('write');
    expect(tools.write_file!.status).toBe('ungated');
  });

  it('offers each variant arm as a tool named by the variant, with what it reaches and whether it asks', async () => {
    const { tools, caps } = await auditTools('rust-tool-enum', files);
    expect(tools.run_shell?.reaches, Object.keys(tools).join(', ')).toContain('exec');
    expect(tools.run_shell!.status).toBe('gated');
    expect(tools.write_file?.reaches).toContain('write');
    expect(tools.write_file!.status).toBe('ungated');
    expect(caps).toContain('C2');
  });

  it('reads no tool from a subcommand enum', async () => {
    const { tools } = await auditTools('rust-tool-enum-cli', files);
    expect(Object.keys(tools)).not.toContain('run');
  });
});
