import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Evidence } from '../../src/report/schema.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { cited, toolLoopAgent } from './support.js';

// (--force: the Go journal below is a client's transport, not a whole agent.)
const criterion = async (name: string, files: Record<string, string>, id: string) => {
  const report = await audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false, force: true });
  return report.criteria.find((c) => c.id === id)!;
};
const capCited = (c: { capEvidence: Evidence[] }) => cited(c.capEvidence).split(', ');

/**
 * A code runner that installs whatever package a failed import names: the name comes from the
 * error text of code the model wrote, so the registry's current package of that name runs unasked
 * (C7 S L0, D L0 and the C7 cap). A runner that installs one package it names itself, or asks
 * first, does not.
 */
const runner = (onMissing: string) => `import re
import subprocess
import sys


def run_code(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    output = result.stdout + result.stderr
    if "No module named" in output:
${onMissing}
    return output
`;

describe('a failed import that installs the package its error names', () => {
  const agent = (name: string, onMissing: string) =>
    criterion(name, { ...toolLoopAgent('fixbot', { extra: 'from fixbot.runner import run_code\n', entries: ', "run_code": run_code' }), 'fixbot/runner.py': runner(onMissing) }, 'C7');

  it('installs the name parsed from the error, unasked: C7 S and D at L0, and the cap fires on that line', async () => {
    const c = await agent('install-from-error', '        name = re.search(r"No module named \'(\\w+)\'", output).group(1)\n        subprocess.run([sys.executable, "-m", "pip", "install", name])');
    expect([c.levels.S, c.levels.D]).toEqual([0, 0]);
    expect(c.cap).toBe(0.2);
    expect(capCited(c)).toContain('fixbot/runner.py#L9');
  });

  it('installs a package it names itself, or asks before installing: no cap', async () => {
    expect((await agent('install-literal', '        subprocess.run([sys.executable, "-m", "pip", "install", "numpy"])')).cap).toBeNull();
    const asked = await agent('install-asked', '        name = output.split("\'")[-2]\n        if input(f"Install {name}? [y/N] ") == "y":\n            subprocess.run([sys.executable, "-m", "pip", "install", name])');
    expect(asked.cap).toBeNull();
  });
});

describe('a secret logged inside a whole object', () => {
  const app = (printed: string) => `from openai import OpenAI


def submit(user_input, state):
    print(${printed})
    client = OpenAI(api_key=state["api_key"])
    return client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": user_input}])


if __name__ == "__main__":
    submit(input(), {"api_key": ""})
`;

  it('prints the state it reads the API key from: the C8 cap fires on the print', async () => {
    const c = await criterion('print-state', { 'app.py': app('state') }, 'C8');
    expect(c.cap).toBe(0.25);
    expect(capCited(c)).toContain('app.py#L5');
  });

  it('prints the user input beside it: no cap', async () => {
    expect((await criterion('print-input', { 'app.py': app('user_input') }, 'C8')).cap).toBeNull();
  });
});

describe('a method the Go runtime calls (http.RoundTripper)', () => {
  const files = (method: string) => ({
    'go.mod': 'module example.com/journal\n\ngo 1.22\n',
    'main.go': `package main

import (
	"net/http"
	"os"
)

func main() {
	client := &http.Client{Transport: &journaling{next: http.DefaultTransport}}
	resp, err := client.Get(os.Args[1])
	if err == nil {
		resp.Body.Close()
	}
}
`,
    'journal.go': `package main

import (
	"log"
	"net/http"
	"net/http/httputil"
)

type journaling struct{ next http.RoundTripper }

func (j *journaling) ${method}(req *http.Request) (*http.Response, error) {
	dump, err := httputil.DumpRequestOut(req, true)
	if err == nil {
		log.Println(string(dump))
	}
	return j.next.RoundTrip(req)
}
`,
  });

  it('RoundTrip runs on every request though nothing calls it by name: its dump of the request, headers and body, fires the C8 cap', async () => {
    const c = await criterion('roundtrip', files('RoundTrip'), 'C8');
    expect(c.cap).toBe(0.25);
    expect(capCited(c)).toContain('journal.go#L12');
  });

  it('the same method under a name nothing calls is dead code: no cap', async () => {
    expect((await criterion('roundtrip-dead', files('record'), 'C8')).cap).toBeNull();
  });
});
