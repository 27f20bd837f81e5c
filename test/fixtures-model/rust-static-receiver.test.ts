import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A Rust MCP server whose tool hands the command to a manager held in a static (`static SHELL:
 * LazyLock<Shell>`, called as `SHELL.run(…)`): the static is a value, not a type, so its method is
 * found as any object's and the tool reaches the shell. A type of that name the repository defines
 * (`GDB::connect(…)`) is still that type's own function.
 */
const RUST = (viaType: boolean): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "runner"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nrmcp = { version = "0.8", features = ["server"] }\ntokio = { version = "1", features = ["full"] }\n',
  'src/shell.rs': `use std::process::Command;

pub struct Shell {
    pub program: String,
}

pub struct SH;

impl SH {
    pub fn run(command: &str) -> String {
        let out = Command::new("sh").arg("-c").arg(command).output().expect("sh");
        String::from_utf8_lossy(&out.stdout).to_string()
    }
}

impl Shell {
    pub fn run(&self, command: &str) -> String {
        let out = Command::new(&self.program).arg("-c").arg(command).output().expect("shell");
        String::from_utf8_lossy(&out.stdout).to_string()
    }
}
`,
  'src/main.rs': `mod shell;

use std::sync::LazyLock;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler, ServiceExt};

use crate::shell::{Shell, SH};

pub static SHELL_MANAGER: LazyLock<Shell> = LazyLock::new(|| Shell { program: "/bin/sh".to_string() });

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Cmd {
    pub command: String,
}

#[derive(Clone)]
pub struct Runner {
    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,
}

#[tool_router]
impl Runner {
    #[tool(description = "Run a shell command")]
    async fn run_command(&self, Parameters(p): Parameters<Cmd>) -> Result<CallToolResult, McpError> {
        let out = ${viaType ? 'SH::run(&p.command)' : 'SHELL_MANAGER.run(&p.command)'};
        Ok(CallToolResult::success(vec![Content::text(out)]))
    }
}

#[tool_handler]
impl ServerHandler for Runner {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let service = Runner { tool_router: Runner::tool_router() }.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
`,
});

describe('a Rust tool that calls a method on a static in capitals', () => {
  it('reaches the command the static runs, unasked, and the approval cap fires', async () => {
    const { tools, caps } = await auditTools('rust-static', RUST(false));
    expect(tools.run_command?.reaches, Object.keys(tools).join(', ')).toContain('exec');
    expect(tools.run_command!.status).toBe('ungated');
    expect(caps).toContain('C2');
  });

  it('a type in capitals the repository defines is still called by its own function', async () => {
    const { tools } = await auditTools('rust-static-type', RUST(true));
    expect(tools.run_command?.reaches, Object.keys(tools).join(', ')).toContain('exec');
  });
});
