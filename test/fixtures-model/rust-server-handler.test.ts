import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Rust MCP server whose tools are WebAssembly plugins it loads at run time: it handles every tool
 * call itself (`impl ServerHandler for PluginService { async fn call_tool(…) }`) and runs the
 * plugin in an Extism runtime. The handler is the server's one tool, and the plugin's code runs
 * in a WASM runtime. A server that also registers a tool of its own by name hands the calls on to
 * it: the handler is then no tool.
 */
const files = (ownTool: boolean): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "plugin-mcp"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nrmcp = "0.8"\nextism = "1"\ntokio = { version = "1", features = ["full"] }\n',
  'src/service.rs': `use std::collections::HashMap;

use rmcp::model::{CallToolRequestParam, CallToolResult, Content};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct PluginService {
    plugins: HashMap<String, extism::Plugin>,
}

impl PluginService {
    pub fn load(wasm: Vec<u8>) -> Self {
        let manifest = extism::Manifest::new([extism::Wasm::data(wasm)]);
        let plugin = extism::Plugin::new(&manifest, [], true).expect("plugin");
        let mut plugins = HashMap::new();
        plugins.insert("time".to_string(), plugin);
        Self { plugins }
    }
}

impl ServerHandler for PluginService {
    async fn call_tool(&self, request: CallToolRequestParam, _context: RequestContext<RoleServer>) -> Result<CallToolResult, ErrorData> {
        let plugin = self.plugins.get(request.name.as_ref()).expect("known");
        let out: String = plugin.call("call", request.arguments.unwrap_or_default().to_string()).unwrap_or_default();
        Ok(CallToolResult::success(vec![Content::text(out)]))
    }
}
`,
  ...(ownTool
    ? {
        'src/tools.rs': `use rmcp::{tool, tool_router};

pub struct Clock;

#[tool_router]
impl Clock {
    #[tool(description = "The time now")]
    pub async fn now(&self) -> String {
        "12:00".to_string()
    }
}
`,
      }
    : {}),
  'src/main.rs': `mod service;
${ownTool ? 'mod tools;\n' : ''}
#[tokio::main]
async fn main() {
    let _service = service::PluginService::load(std::fs::read("plugin.wasm").unwrap());
}
`,
});

describe('a Rust MCP server that handles every tool call itself', () => {
  it('is scored, its handler the one tool, its plugins run in a WASM runtime', async () => {
    const report = await audit(writeTree('plugin-mcp', files(false)), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => [t.name, t.construct])).toEqual([['PluginService', 'server-handler']]);
    expect(report.criteria.find((c) => c.id === 'C4')!.dimensions.S.level).toBe(4);
  });

  it('hands the calls on to the tools it registers by name', async () => {
    const report = await audit(writeTree('plugin-mcp-own-tool', files(true)), { rubricDir: RUBRIC, factsCache: false });
    expect(report.agent!.tools.map((t) => t.name)).toEqual(['now']);
  });
});
