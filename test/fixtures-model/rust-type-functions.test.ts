import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Rust call of a type's own function (`Settings::from_str(…)`) runs that type's function where
 * the repository defines the type; one of a library's type (`HeaderName::from_str(…)`) runs the
 * library's, however many functions of that name the repository has.
 */
const files = {
  'Cargo.toml': '[package]\nname = "headers"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nhttp = "1"\nrmcp = "0.3"\n',
  'src/main.rs': `use std::str::FromStr;

use http::HeaderName;
use rmcp::tool;

pub struct Settings {
    text: String,
}

impl FromStr for Settings {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        std::fs::write("settings.toml", s).map_err(|e| e.to_string())?;
        Ok(Settings { text: s.to_string() })
    }
}

#[tool(description = "Check a header name")]
fn check_header(name: String) -> String {
    match HeaderName::from_str(&name) {
        Ok(_) => "ok".to_string(),
        Err(_) => "bad".to_string(),
    }
}

#[tool(description = "Save the settings")]
fn save_settings(text: String) -> String {
    match Settings::from_str(&text) {
        Ok(s) => s.text,
        Err(e) => e,
    }
}

fn main() {}
`,
};

describe("a Rust type's own function", () => {
  it("is the repository's where it defines the type, a library's where it does not", async () => {
    const report = await audit(writeTree('headers', files), { rubricDir: RUBRIC, factsCache: false });
    const reaches = Object.fromEntries(report.agent!.tools.map((t) => [t.name, t.reaches]));
    expect(reaches).toEqual({ check_header: [], save_settings: ['write'] });
  });
});
