import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Rust workspace whose shell tool runs its command through a function imported by name from
 * another crate (`use proc_kit::spawn::{run, Limits};` … `run(&p.command, limits)`), in a
 * repository where four other modules define a `run` of their own (each subcommand's entry). The
 * import says which one the tool calls: it reaches the command, unasked (C2 cap). Before, a name
 * that common was not followed at all.
 */
const others = ['auth', 'config', 'doctor', 'update'];

const files: Record<string, string> = {
  'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
  'crates/proc-kit/Cargo.toml': '[package]\nname = "proc-kit"\nversion = "0.1.0"\nedition = "2021"\n',
  'crates/proc-kit/src/lib.rs': 'pub mod spawn;\n',
  'crates/proc-kit/src/spawn.rs': `use std::process::Command;

pub struct Limits {
    pub timeout_secs: u64,
}

pub fn run(command: &str, _limits: Limits) -> String {
    let out = Command::new("sh").arg("-c").arg(command).output().expect("spawn");
    String::from_utf8_lossy(&out.stdout).to_string()
}
`,
  'crates/desk/Cargo.toml': '[package]\nname = "desk"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nproc-kit = { path = "../proc-kit" }\nrmcp = { version = "0.8", features = ["server"] }\ntokio = { version = "1", features = ["full"] }\n',
  'crates/desk/src/main.rs': `mod commands;

use proc_kit::spawn::{run, Limits};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler, ServiceExt};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Shell {
    pub command: String,
}

#[derive(Clone)]
pub struct Desk {
    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,
}

#[tool_router]
impl Desk {
    #[tool(description = "Run a shell command")]
    async fn shell(&self, Parameters(p): Parameters<Shell>) -> Result<CallToolResult, McpError> {
        let out = run(&p.command, Limits { timeout_secs: 60 });
        Ok(CallToolResult::success(vec![Content::text(out)]))
    }
}

#[tool_handler]
impl ServerHandler for Desk {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("doctor") {
        return commands::doctor::run();
    }
    let service = Desk { tool_router: Desk::tool_router() }.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
`,
  'crates/desk/src/commands/mod.rs': others.map((o) => `pub mod ${o};\n`).join(''),
  ...Object.fromEntries(others.map((o) => [`crates/desk/src/commands/${o}.rs`, `pub fn run() -> anyhow::Result<()> {\n    println!("${o}");\n    Ok(())\n}\n`])),
};

describe('a Rust function imported by name from a crate of the workspace', () => {
  it('is the one the tool calls, however many modules define that name: the shell runs unasked', async () => {
    const { tools, caps } = await auditTools('desk', files);
    expect(tools.shell).toMatchObject({ reaches: ['exec'], gated: false, status: 'ungated' });
    expect(caps).toContain('C2');
  });
});
