import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * Rust tools marked by an attribute macro: methods of an rmcp server's `#[tool_router]` impl and a
 * free function marked `#[tool(…)]` (the swiftide form, here through a path). Each is a tool named
 * by its function; a method beside them without the attribute, and the router's own impl, are not.
 */
const files: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "desk"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nrmcp = { version = "0.8", features = ["server"] }\ntokio = { version = "1", features = ["full"] }\n',
  'src/main.rs': `mod agent;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler, ServiceExt};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Write {
    pub path: String,
    pub body: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Fetch {
    pub url: String,
}

#[derive(Clone)]
pub struct Desk {
    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,
}

#[tool_router]
impl Desk {
    #[tool(description = "Write a file")]
    async fn write_note(&self, Parameters(p): Parameters<Write>) -> Result<CallToolResult, McpError> {
        std::fs::write(&p.path, &p.body).map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text("ok")]))
    }

    /// Fetches a page for the model.
    #[tool(description = "Fetch a URL")]
    #[allow(clippy::unused_async)]
    async fn fetch_page(&self, Parameters(p): Parameters<Fetch>) -> Result<CallToolResult, McpError> {
        let body = reqwest::get(&p.url).await.map_err(|e| McpError::internal_error(e.to_string(), None))?.text().await.unwrap_or_default();
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }

    /// Named by its attribute, not by the function.
    #[rmcp::tool(name = "sum_numbers", description = "Add, as in name = \\"total\\"")]
    async fn add(&self, Parameters(p): Parameters<Fetch>) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![Content::text(p.url.len().to_string())]))
    }

    fn log_path(&self) -> String {
        std::env::var("DESK_LOG").unwrap_or_default()
    }
}

#[tool_handler]
impl ServerHandler for Desk {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    agent::start();
    let service = Desk { tool_router: Desk::tool_router() }.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
`,
  'src/agent.rs': `use swiftide::chat_completion::errors::ToolError;
use swiftide::chat_completion::ToolOutput;
use swiftide::traits::AgentContext;

pub fn start() {}

#[swiftide::tool(description = "Run a shell command", param(name = "cmd", description = "the command"))]
pub async fn run_shell(context: &dyn AgentContext, cmd: &str) -> Result<ToolOutput, ToolError> {
    let out = std::process::Command::new("sh").arg("-c").arg(cmd).output()?;
    Ok(String::from_utf8_lossy(&out.stdout).to_string().into())
}
`,
};

describe('Rust tools marked by an attribute macro', () => {
  it('lists each #[tool] function as a tool, with what it reaches, and nothing else', async () => {
    const report = await audit(writeTree('rust-tool-attr', files), { rubricDir: RUBRIC, factsCache: false });
    const tools = report.agent!.tools.filter((t) => t.construct === 'decorated-function');
    // A name the attribute gives is the tool's (a `name = …` inside another argument's text is not).
    expect(tools.map((t) => t.name).sort()).toEqual(['fetch_page', 'run_shell', 'sum_numbers', 'write_note']);
    const reach = Object.fromEntries(tools.map((t) => [t.name, t.reaches]));
    expect(reach.write_note).toContain('write');
    expect(reach.fetch_page).toContain('net');
    expect(reach.run_shell).toContain('exec');
    expect(report.agent!.tools.map((t) => t.name)).not.toContain('log_path');
    // Nothing asks: the shell and write tools run unasked, and the approval cap fires.
    expect(tools.filter((t) => t.reaches.length > 0).every((t) => t.status === 'ungated')).toBe(true);
    expect(report.criteria.filter((c) => c.cap).map((c) => c.id)).toContain('C2');
  });
});
