import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Rust CLI agent whose tools are structs implementing a `Tool` trait (`execute` on each). Its
 * main function matches the subcommand: `login` reads a token from the terminal, `sync` asks y/N
 * and then calls the `sync` module's own `execute`, `browse` calls an `execute` re-exported from
 * one of two modules (a call the graph cannot pin to one), `run` starts the tool loop, which reads
 * the model's calls line by line from a local model process's stdout. None of those reads asks
 * about a tool: a prompt in another arm of the `match`, a static call of another `execute` after
 * an ask, and a line from a child's pipe stand before no tool. Only the variants that ask y/N on
 * the terminal before each call gate their tools.
 */
const files = (asks: 'no' | 'stdin' | 'bound'): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "ferrous"\nversion = "0.1.0"\nedition = "2021"\n',
  'src/tool/mod.rs': `pub mod bash;
pub mod write;

use serde_json::Value;

#[async_trait::async_trait]
pub trait Tool: Send + Sync {
    fn name(&self) -> &str;
    fn description(&self) -> &str;
    fn parameters(&self) -> Value;
    async fn execute(&self, args: Value) -> anyhow::Result<String>;
}
`,
  'src/tool/bash.rs': `use super::Tool;
use serde_json::{json, Value};
use tokio::process::Command;

pub struct BashTool;

#[async_trait::async_trait]
impl Tool for BashTool {
    fn name(&self) -> &str {
        "bash"
    }
    fn description(&self) -> &str {
        "Run a shell command"
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"command": {"type": "string"}}})
    }
    async fn execute(&self, args: Value) -> anyhow::Result<String> {
        let command = args["command"].as_str().unwrap_or_default().to_string();
        let out = Command::new("bash").arg("-c").arg(&command).output().await?;
        Ok(String::from_utf8_lossy(&out.stdout).to_string())
    }
}
`,
  'src/tool/write.rs': `use super::Tool;
use serde_json::{json, Value};

pub struct WriteTool;

#[async_trait::async_trait]
impl Tool for WriteTool {
    fn name(&self) -> &str {
        "write"
    }
    fn description(&self) -> &str {
        "Write a file"
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}})
    }
    async fn execute(&self, args: Value) -> anyhow::Result<String> {
        let path = args["path"].as_str().unwrap_or_default().to_string();
        tokio::fs::write(&path, args["content"].as_str().unwrap_or_default()).await?;
        Ok(format!("wrote {path}"))
    }
}
`,
  'src/agent.rs': `use crate::tool::{bash::BashTool, write::WriteTool, Tool};
use std::io::{BufRead, Write};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

pub async fn run(prompt: String) -> anyhow::Result<()> {
    let tools: Vec<Box<dyn Tool>> = vec![Box::new(BashTool), Box::new(WriteTool)];
    let mut model = Command::new("llama-cli").arg("--prompt").arg(&prompt).stdout(std::process::Stdio::piped()).spawn()?;
    let mut reader = BufReader::new(model.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).await? == 0 {
            break;
        }
        let call: serde_json::Value = serde_json::from_str(&line)?;
        let Some(tool) = tools.iter().find(|t| t.name() == call["name"]) else { continue };
${asks !== 'no' ? `        print!("Run {} {}? [y/N] ", tool.name(), call["arguments"]);
        std::io::stdout().flush()?;
        let mut answer = String::new();
        ${asks === 'stdin' ? 'std::io::stdin().read_line(&mut answer)?;' : 'let mut terminal = std::io::stdin().lock();\n        terminal.read_line(&mut answer)?;'}
        if answer.trim() != "y" {
            continue;
        }
` : ''}        let out = tool.execute(call["arguments"].clone()).await?;
        println!("{out}");
    }
    Ok(())
}
`,
  'src/auth.rs': `pub async fn login() -> anyhow::Result<()> {
    let mut token = String::new();
    std::io::stdin().read_line(&mut token)?;
    if token.trim().is_empty() {
        anyhow::bail!("no token given");
    }
    std::fs::write(dirs::home_dir().unwrap().join(".ferrous-token"), token.trim())?;
    Ok(())
}
`,
  'src/sync/mod.rs': `pub async fn execute(remote: String) -> anyhow::Result<()> {
    let body = reqwest::get(&remote).await?.text().await?;
    println!("{body}");
    Ok(())
}
`,
  'src/browse/mod.rs': `mod offline;
mod online;

pub use online::execute;
`,
  'src/browse/online.rs': `pub async fn execute(url: String) -> anyhow::Result<()> {
    println!("{}", reqwest::get(&url).await?.text().await?);
    Ok(())
}
`,
  'src/browse/offline.rs': `pub fn execute(path: &str) -> anyhow::Result<String> {
    Ok(std::fs::read_to_string(path)?)
}
`,
  'src/main.rs': `mod agent;
mod auth;
mod browse;
mod sync;
mod tool;

use clap::Parser;
use std::io::Write;

#[derive(clap::Subcommand)]
enum Command {
    Login,
    Sync { remote: String },
    Browse { url: String },
    Run { prompt: String },
}

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

fn confirm_sync(remote: &str) -> anyhow::Result<bool> {
    print!("Sync with {remote}? [y/N] ");
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    Ok(answer.trim() == "y")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Login => auth::login().await,
        Command::Sync { remote } => {
            if !confirm_sync(&remote)? {
                return Ok(());
            }
            sync::execute(remote).await
        }
        Command::Browse { url } => browse::execute(url).await,
        Command::Run { prompt } => agent::run(prompt).await,
    }
}
`,
});

describe('a Rust agent whose reads of the terminal and of a pipe stand before no tool', () => {
  it('takes neither the login prompt in another arm, the sync prompt before a static call, nor a line from the model pipe for an approval', async () => {
    const report = await audit(writeTree('ferrous-unasked', files('no')), { rubricDir: RUBRIC, factsCache: false });
    const bash = report.agent!.tools.find((t) => t.name === 'bash')!;
    expect(bash.reaches).toContain('exec');
    expect(bash.gated).toBe(false);
    expect(report.agent!.tools.find((t) => t.name === 'write')!.gated).toBe(false);
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it.each([
    ['stdin', /stdin\(\)\.read_line/],
    ['bound', /terminal\.read_line/],
  ] as const)('gates both tools where the loop asks y/N on the terminal before each call (%s)', async (asks, site) => {
    const report = await audit(writeTree(`ferrous-asks-${asks}`, files(asks)), { rubricDir: RUBRIC, factsCache: false });
    for (const name of ['bash', 'write']) {
      const tool = report.agent!.tools.find((t) => t.name === name)!;
      expect(tool.gated).toBe(true);
      expect(tool.paths.find((p) => p.gate)!.gate!.site.text).toMatch(site);
    }
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
  });
});
