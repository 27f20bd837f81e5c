import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Rust agent that dispatches the model's tool calls with a `match` on the tool's name, each arm
 * a block that runs the tool (`"shell" => { … }`), nested in a match on the server that offers it.
 * Each arm is a tool named by its pattern, not by a string in the code it runs; a match arm
 * that maps a name to a category (`"shell" => "developer"`) reaches nothing and offers no tool.
 */
const files: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "octo"\nversion = "0.1.0"\nedition = "2021"\n',
  'src/tools.rs': `use serde_json::Value;

pub struct ToolCall {
    pub tool_name: String,
    pub parameters: Value,
}

pub fn category(tool_name: &str) -> &'static str {
    match tool_name {
        "shell" => "developer",
        "write_file" => "filesystem",
        _ => "other",
    }
}

pub async fn execute(call: &ToolCall, server: &str) -> anyhow::Result<String> {
    match server {
        "developer" => match call.tool_name.as_str() {
            "shell" => {
                log::debug!("Executing shell command via server '{}'", server);
                let command = call.parameters["command"].as_str().unwrap_or_default();
                let out = std::process::Command::new("sh").arg("-c").arg(command).output()?;
                Ok(String::from_utf8_lossy(&out.stdout).to_string())
            }
            "write_file" => {
                log::debug!("Writing via server '{}'", server);
                let path = call.parameters["path"].as_str().unwrap_or_default();
                std::fs::write(path, call.parameters["content"].as_str().unwrap_or_default())?;
                Ok("written".to_string())
            }
            _ => anyhow::bail!("unknown tool"),
        },
        _ => anyhow::bail!("unknown server"),
    }
}
`,
  'src/main.rs': `mod tools;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let client = reqwest::Client::new();
    loop {
        let reply: serde_json::Value = client.post("https://api.openai.com/v1/chat/completions").json(&serde_json::json!({"model": "gpt-4o", "tools": []})).send().await?.json().await?;
        let Some(calls) = reply["choices"][0]["message"]["tool_calls"].as_array() else { break };
        for c in calls {
            let call = tools::ToolCall { tool_name: c["function"]["name"].as_str().unwrap_or_default().to_string(), parameters: serde_json::from_str(c["function"]["arguments"].as_str().unwrap_or("{}"))? };
            println!("{} ({})", tools::execute(&call, tools::category(&call.tool_name)).await?, call.tool_name);
        }
    }
    Ok(())
}
`,
};

/** The shell arm handing the call to a helper that builds its command through tokio's `Command` imported under another name. */
const aliased = (): Record<string, string> => ({
  ...files,
  'src/shell.rs': `use serde_json::Value;

pub async fn execute_shell_command(parameters: &Value) -> anyhow::Result<String> {
    use tokio::process::Command as TokioCommand;
    let command = parameters["command"].as_str().unwrap_or_default().to_string();
    let mut cmd = TokioCommand::new("sh");
    cmd.args(["-c", &command]);
    let out = cmd.output().await?;
    Ok(String::from_utf8_lossy(&out.stdout).to_string())
}
`,
  'src/tools.rs': files['src/tools.rs']!.replace(
    /"shell" => \{[\s\S]*?\n            \}\n/,
    '"shell" => {\n                log::debug!("Executing shell command via server \'{}\'", server);\n                crate::shell::execute_shell_command(&call.parameters).await\n            }\n',
  ),
  'src/main.rs': files['src/main.rs']!.replace('mod tools;', 'mod shell;\nmod tools;'),
});

describe('a Rust dispatch on the tool name whose arms run the tools', () => {
  it('offers each arm as a tool named by its pattern, reaching what its block runs', async () => {
    const report = await audit(writeTree('octo-arms', files), { rubricDir: RUBRIC, factsCache: false });
    const tools = report.agent!.tools.map((t) => [t.name, t.construct, t.reaches.filter((r) => r === 'exec' || r === 'write').join('/')]);
    expect(tools).toEqual([
      ['shell', 'dispatch-branch', 'exec'],
      ['write_file', 'dispatch-branch', 'write'],
    ]);
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });

  it.each([
    ['a command from the call', '.arg(&command)', true],
    ['a fixed script', '.arg("uptime")', false],
  ] as const)('reads the arguments a bound command is given in a later statement, chained (%s)', async (_, last, runs) => {
    const tree = aliased();
    tree['src/shell.rs'] = tree['src/shell.rs']!.replace('    cmd.args(["-c", &command]);\n', `    cmd.arg("-c")\n        ${last};\n`);
    expect(tree['src/shell.rs']).toContain(last);
    const report = await audit(writeTree(`octo-later-${runs}`, tree), { rubricDir: RUBRIC, factsCache: false });
    const reaches = report.agent!.tools.find((t) => t.name === 'shell')?.reaches ?? [];
    expect(reaches.includes('exec')).toBe(runs);
  });

  it('follows an arm into a helper whose command is built by `Command` imported under another name', async () => {
    const tree = aliased();
    expect(tree['src/tools.rs']).toContain('crate::shell::execute_shell_command');
    const report = await audit(writeTree('octo-alias', tree), { rubricDir: RUBRIC, factsCache: false });
    const shell = report.agent!.tools.find((t) => t.name === 'shell')!;
    expect(shell.paths.filter((p) => p.kind === 'exec').map((p) => `${p.sink.path}:${p.sink.line}`)).toEqual(['src/shell.rs:6']);
  });
});
