import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Rust MCP server whose tools are structs the SDK's attribute macro declares
 * (`#[mcp_tool(name = "write_note", …)]`), each run by a method of its own impl block, and
 * dispatched through a macro the call graph cannot read. A struct without the attribute whose
 * impl has a method of the same name (a helper that starts a process) is no tool.
 */
const files = (attribute: boolean): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "notes-mcp"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nrust-mcp-sdk = "0.7"\ntokio = { version = "1", features = ["full"] }\n',
  'src/tools/write_note.rs': `use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::schema::{schema_utils::CallToolError, CallToolResult, TextContent};

${attribute ? '#[mcp_tool(\n    name = "write_note",\n    description = "Write a note to a file, as in name = \\"other\\""\n)]\n' : ''}#[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, JsonSchema)]
pub struct WriteNote {
    /// Where the note goes.
    pub path: String,
    pub body: String,
}

impl WriteNote {
    pub async fn run_tool(params: Self) -> Result<CallToolResult, CallToolError> {
        tokio::fs::write(&params.path, &params.body).await.map_err(CallToolError::new)?;
        Ok(CallToolResult::text_content(vec![TextContent::from("saved".to_string())]))
    }
}
`,
  'src/tools/show_note.rs': `use rust_mcp_sdk::macros::{mcp_tool, JsonSchema};
use rust_mcp_sdk::schema::{schema_utils::CallToolError, CallToolResult, TextContent};

${attribute ? '#[mcp_tool(name = "show_note", description = "Show a note")]\n' : ''}#[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, JsonSchema)]
pub struct ShowNote {
    pub path: String,
}

impl ShowNote {
    pub async fn run_tool(params: Self) -> Result<CallToolResult, CallToolError> {
        let text = tokio::fs::read_to_string(&params.path).await.map_err(CallToolError::new)?;
        Ok(CallToolResult::text_content(vec![TextContent::from(text)]))
    }
}
`,
  'src/indexer.rs': `pub struct Indexer {
    pub program: String,
}

impl Indexer {
    pub async fn run_tool(params: Self) -> std::io::Result<()> {
        std::process::Command::new(&params.program).status()?;
        Ok(())
    }
}
`,
  'src/tools.rs': `mod show_note;
mod write_note;

pub use show_note::ShowNote;
pub use write_note::WriteNote;

rust_mcp_sdk::tool_box!(NoteTools, [WriteNote, ShowNote]);
`,
  'src/main.rs': `mod indexer;
mod tools;

use rust_mcp_sdk::schema::{CallToolRequest, CallToolResult, ListToolsResult};

macro_rules! invoke {
    ($params:expr, $($tool:ident),*) => {
        match $params { $(tools::NoteTools::$tool(p) => tools::$tool::run_tool(p).await,)* }
    };
}

pub struct Handler;

impl Handler {
    pub async fn handle_list_tools_request(&self) -> ListToolsResult {
        ListToolsResult { tools: tools::NoteTools::tools(), next_cursor: None, meta: None }
    }

    pub async fn handle_call_tool_request(&self, request: CallToolRequest) -> Result<CallToolResult, rust_mcp_sdk::schema::schema_utils::CallToolError> {
        let params = tools::NoteTools::try_from(request.params).map_err(rust_mcp_sdk::schema::schema_utils::CallToolError::new)?;
        invoke!(params, WriteNote, ShowNote)
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    indexer::Indexer::run_tool(indexer::Indexer { program: "ctags".into() }).await?;
    rust_mcp_sdk::mcp_server::server_runtime::create_server(Handler).start().await?;
    Ok(())
}
`,
});

describe('a Rust MCP server whose tools are structs declared by the SDK attribute macro', () => {
  it('offers each declared struct as a tool named by its attribute, run by its own impl method', async () => {
    const report = await audit(writeTree('notes-mcp', files(true)), { rubricDir: RUBRIC, factsCache: false });
    const names = report.agent!.tools.map((t) => t.name).sort();
    expect(names).toEqual(['show_note', 'write_note']);
    const write = report.agent!.tools.find((t) => t.name === 'write_note')!;
    expect(write.reaches).toContain('write');
    expect(write.gated).toBe(false);
    expect(write.handler?.path).toBe('src/tools/write_note.rs');
    expect(report.agent!.tools.find((t) => t.name === 'show_note')!.reaches).not.toContain('write');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it('offers no tool where the structs carry no tool attribute (and then sees no agent)', async () => {
    await expect(audit(writeTree('notes-plain', files(false)), { rubricDir: RUBRIC, factsCache: false })).rejects.toThrow(/no sign of an agent harness/);
  });
});
