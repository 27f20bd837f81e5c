import { describe, expect, it } from 'vitest';
import { refusal } from '../helpers.js';

/**
 * A chat request body built by hand and posted with the language's HTTP client (a model and the
 * conversation: `Payload{Model: …, Messages: …}` in Go, `{"model": …, "messages": …}` in Python,
 * `{ model, messages }` in TypeScript) is a call to a language model, wherever the endpoint comes
 * from: the harness is scored, not refused as showing no agent. A body with the model alone is no
 * such call.
 */
const go = (fields: string): Record<string, string> => ({
  'go.mod': 'module q\n\ngo 1.21\n',
  'main.go': `package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
)

type Message struct {
	Role    string \`json:"role"\`
	Content string \`json:"content"\`
}

type Payload struct {
	Model    string    \`json:"model"\`
	Messages []Message \`json:"messages"\`
}

func main() {
	payload := Payload{${fields}}
	body, _ := json.Marshal(payload)
	resp, err := http.Post(os.Getenv("Q_ENDPOINT"), "application/json", bytes.NewBuffer(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
}
`,
});

const python = (body: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "ask"\nversion = "0.1.0"\n[project.scripts]\nask = "ask.cli:main"\n',
  'ask/__init__.py': '',
  'ask/cli.py': `import os
import sys

import requests


def main():
    reply = requests.post(os.environ["ASK_ENDPOINT"], json=${body}, timeout=60)
    print(reply.json())
`,
});

const ts = (body: string): Record<string, string> => ({
  'package.json': JSON.stringify({ name: 'ask', version: '1.0.0', bin: { ask: 'dist/index.js' } }),
  'src/index.ts': `const model = process.env.ASK_MODEL ?? 'default';

export async function main(): Promise<void> {
  const messages = [{ role: 'user', content: process.argv[2] ?? '' }];
  const reply = await fetch(process.env.ASK_ENDPOINT!, { method: 'POST', body: JSON.stringify(${body}) });
  console.log(await reply.json());
}
main();
`,
});


describe('a chat request body built by hand', () => {
  it('in Go (a struct with Model and Messages): scored', async () => {
    expect(await refusal('go-payload', go('Model: os.Getenv("Q_MODEL"), Messages: []Message{{Role: "user", Content: os.Args[1]}}'))).toBeNull();
  });

  it('in Python (a dict with "model" and "messages"): scored', async () => {
    expect(await refusal('py-payload', python('{"model": os.environ["ASK_MODEL"], "messages": [{"role": "user", "content": sys.argv[1]}]}'))).toBeNull();
  });

  it('in TypeScript (an object with model and messages, shorthand or not): scored', async () => {
    expect(await refusal('ts-payload', ts('{ model, messages }'))).toBeNull();
    expect(await refusal('ts-payload-keys', ts('{ "model": model, "messages": messages }'))).toBeNull();
  });

  it('with the model alone: refused as showing no agent', async () => {
    expect(await refusal('go-model-only', go('Model: os.Getenv("Q_MODEL")'))).toMatch(/no sign of an agent harness/);
  });
});
