import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { chatToolLoop } from './support.js';

/**
 * Rounds that run a counted number of times (`for _ in range(10)` around the model call) are bounded
 * by steps, though no cap variable is written (C10 S, C, D and B L2, citing the loop). A retry loop
 * around one call (`for attempt in range(max_retries)`) bounds no round, and a counted loop beside
 * one that runs unbounded bounds no run. A call retried in an unconditional loop inside the counted
 * rounds (once the context is compacted) is still one of the rounds.
 */
const agent = (main: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "rounds"\nversion = "0.1.0"\n[project.scripts]\nrounds = "rounds.main:main"\n',
  'rounds/__init__.py': '',
  'rounds/main.py': `import json
import subprocess
import sys

from openai import OpenAI

TOOLS = [{"type": "function", "function": {"name": "run_shell", "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}}}}]


def run_shell(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout


HANDLERS = {"run_shell": run_shell}


def main():
    client = OpenAI()
${main}
`,
});

const c10 = async (name: string, main: string) => {
  const report = await audit(writeTree(name, agent(main)), { rubricDir: RUBRIC, factsCache: false });
  return report.criteria.find((c) => c.id === 'C10')!;
};

const LOOP = chatToolLoop('TOOLS', 'HANDLERS[call.function.name](**json.loads(call.function.arguments))');

describe('rounds bounded by a count', () => {
  it('ten counted rounds: bounded by steps (C10 S, C, D, B L2), citing the loop', async () => {
    const c = await c10('rounds-counted', LOOP);
    expect(c.levels).toMatchObject({ S: 2, C: 2, D: 2, B: 2 });
    expect(c.dimensions.S.evidence.find((e) => e.probe === 'limits.model-loop-counted')).toMatchObject({ kind: 'lines', path: 'rounds/main.py', text: 'for _ in range(10):' });
  });

  it('a retry loop around the call is no bound on the rounds', async () => {
    const c = await c10('rounds-retry', LOOP.replace('for _ in range(10):', 'for attempt in range(max_retries):').replace('    messages = [', '    max_retries = 3\n    messages = ['));
    expect(c.levels.S).toBeLessThan(2);
  });

  it('a call retried in an unconditional loop inside the counted rounds is still bounded by them (Rust)', async () => {
    const main = (rounds: string) => `use async_openai::{types::CreateChatCompletionRequest, Client};

async fn compact(messages: &mut Vec<String>) {
    messages.drain(..messages.len().saturating_sub(4));
}

async fn run_turn(client: &Client, max_tool_iterations: usize) -> Result<String, String> {
    let mut messages: Vec<String> = vec![];
    ${rounds} {
        let mut compacted = false;
        let response = loop {
            let attempt = client.chat().create(CreateChatCompletionRequest::default()).await;
            match attempt {
                Ok(response) => break response,
                Err(e) if !compacted => {
                    compact(&mut messages).await;
                    compacted = true;
                }
                Err(e) => return Err(e.to_string()),
            }
        };
        if response.choices.is_empty() {
            return Ok(String::new());
        }
        messages.push(format!("{:?}", response.choices));
    }
    Ok(String::new())
}

#[tokio::main]
async fn main() {
    let client = Client::new();
    let _ = run_turn(&client, 50).await;
}
`;
    const levels = async (name: string, rounds: string) =>
      (await audit(writeTree(name, { 'Cargo.toml': '[package]\nname = "rounds"\nversion = "0.1.0"\nedition = "2021"\n', 'src/main.rs': main(rounds) }), { rubricDir: RUBRIC, factsCache: false })).criteria.find((c) => c.id === 'C10')!;
    const bounded = await levels('rounds-retried-call', 'for _iteration in 0..max_tool_iterations');
    expect(bounded.dimensions.S.evidence.map((e) => e.probe)).not.toContain('limits.model-loop-unbounded');
    expect(bounded.levels.S).toBe(2);
    // (The same retry loop with no counted rounds around it: the run is bounded by nothing.)
    const open = await levels('rounds-retried-open', 'while !messages.is_empty() || true');
    expect(open.levels.S).toBeLessThan(2);
  });

  it('a counted loop beside one that runs unbounded bounds no run', async () => {
    const c = await c10('rounds-beside', `${LOOP}\n    while True:\n        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=TOOLS)\n        if reply.choices[0].message.content == "DONE":\n            break`);
    expect(c.levels.S).toBeLessThan(2);
  });
});
