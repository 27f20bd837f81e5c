import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Rust agent with a helper that opens a path in an editor through the shell (`sh -c "code …"`),
 * kept under `#[allow(unused)]`. A lint attribute marks no function a framework calls: where
 * nothing in the repository names the helper, nothing runs it, and it is no path of the agent's.
 * Once `main` calls it, it is.
 */
const files = (call: string): Record<string, string> => ({
  'Cargo.toml': '[package]\nname = "pack"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nreqwest = { version = "0.12", features = ["json", "blocking"] }\nserde_json = "1"\n',
  'src/main.rs': `mod support;

fn main() {
    let prompt = std::env::args().nth(1).unwrap_or_default();
    let body = serde_json::json!({ "model": "gpt-4o", "messages": [{ "role": "user", "content": prompt }] });
    let reply: serde_json::Value = reqwest::blocking::Client::new()
        .post("https://api.openai.com/v1/chat/completions")
        .json(&body)
        .send()
        .unwrap()
        .json()
        .unwrap();
    let text = reply["choices"][0]["message"]["content"].as_str().unwrap_or_default().to_string();
    std::fs::write("answer.md", &text).unwrap();
${call}
}
`,
  'src/support.rs': `use std::process::Command;

/// Opens a path in the editor.
#[allow(unused)]
pub fn open_in_editor(path: &str) {
    let _ = Command::new("sh").args(["-c", &format!("code {}", path)]).output();
}
`,
});

const runners = async (name: string, call: string) => {
  const report = await audit(writeTree(name, files(call)), { rubricDir: RUBRIC, factsCache: false });
  return report.agent!.tools.filter((t) => t.construct === 'code runner').map((t) => t.name);
};

describe('a Rust helper under a lint attribute', () => {
  it('that nothing names is no path of the agent', async () => {
    expect(await runners('pack-unused', '')).toEqual([]);
  });

  it('that main calls is one', async () => {
    expect(await runners('pack-used', '    support::open_in_editor(&text);')).toEqual(['open_in_editor']);
  });
});
