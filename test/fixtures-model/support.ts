import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Evidence, Report } from '../../src/report/schema.js';
import { git, ROOT } from '../helpers.js';

export const DIMENSIONS = ['S', 'C', 'D', 'B'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/**
 * Copies fixture folders into one fresh git repository, each layer over the ones before it (same paths
 * replaced), with one commit at the fixed date of test/helpers.ts.
 */
export function layeredRepo(name: string, layers: string[]): string {
  const dir = join(mkdtempSync(join(tmpdir(), `audit-${name}-`)), name);
  for (const layer of layers) cpSync(join(ROOT, 'fixtures', layer), dir, { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', `fixture ${name} (${layers.join(' + ')})`);
  return dir;
}

/** Every level of the report, keyed "C2.S". */
export function levelsOf(report: Report): Record<string, number> {
  return Object.fromEntries(report.criteria.flatMap((c) => DIMENSIONS.map((d) => [`${c.id}.${d}`, c.levels[d]])));
}

/** Every cap value, null where none fired. */
export function capsOf(report: Report): Record<string, number | null> {
  return Object.fromEntries(report.criteria.map((c) => [c.id, c.cap]));
}

/** Where the evidence points: path#line for found code, the probe for an empty search. */
export function cited(evidence: Evidence[]): string {
  return evidence.map((e) => (e.kind === 'lines' ? `${e.path}#L${e.startLine}` : `no hits for ${e.probe}`)).join(', ') || 'no evidence';
}

/** The level of one dimension with what it means and what decided it, for failure messages. */
export function describeLevel(report: Report, criterion: string, dimension: Dimension): string {
  const c = report.criteria.find((x) => x.id === criterion);
  if (!c) return `${criterion} is not in the report`;
  const dim = c.dimensions[dimension];
  return `${criterion}.${dimension} L${dim.level} (${dim.means}) from ${cited(dim.evidence)}`;
}

const reach = z.enum(['exec', 'write', 'net', 'read', 'secrets', 'config']);
const pin = z.union([z.number().int().min(0).max(4), z.tuple([z.number().int().min(0).max(4), z.number().int().min(0).max(4)])]);

/** fixtures/<name>/expected-model.json: what a reviewer reads from the fixture's code. */
export const expectedModelSchema = z
  .object({
    tools: z.array(
      z.object({ name: z.string(), reaches: z.array(reach), gated: z.boolean(), isolated: z.boolean(), why: z.string().min(1) }).strict(),
    ),
    levels: z.record(z.string().regex(/^C(10|[1-9])$/), z.object({ S: pin, C: pin, D: pin, B: pin }).partial().strict()),
    caps: z.record(z.string().regex(/^C(10|[1-9])$/), z.boolean()),
  })
  .strict();
export type ExpectedModel = z.infer<typeof expectedModelSchema>;
export type Pin = z.infer<typeof pin>;

export function readExpectedModel(name: string): ExpectedModel {
  return expectedModelSchema.parse(JSON.parse(readFileSync(join(ROOT, 'fixtures', name, 'expected-model.json'), 'utf8')));
}

export const inPin = (level: number, p: Pin): boolean => (typeof p === 'number' ? level === p : level >= p[0] && level <= p[1]);
export const showPin = (p: Pin): string => (typeof p === 'number' ? `L${p}` : `L${p[0]}–L${p[1]}`);

/**
 * The lines of a Python `main()` body that runs an OpenAI tool loop, bounded to ten turns: the
 * model is offered `specs`, and each tool call's result is `dispatch` (an expression over `call`).
 * `indent` is the body's indentation (inside a `with` block, say).
 */
export function chatToolLoop(specs: string, dispatch: string, indent = '    '): string {
  return [
    'messages = [{"role": "user", "content": sys.argv[1]}]',
    'for _ in range(10):',
    `    reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=${specs})`,
    '    message = reply.choices[0].message',
    '    if not message.tool_calls:',
    '        print(message.content)',
    '        return',
    '    messages.append(message)',
    '    for call in message.tool_calls:',
    `        messages.append({"role": "tool", "tool_call_id": call.id, "content": ${dispatch}})`,
  ]
    .map((l) => indent + l)
    .join('\n');
}

/**
 * A small Python agent: two typed tools in a dispatch map, a chat-completions loop that runs the
 * model's tool calls. `extra` adds definitions after the two tools, `entries` more map entries
 * (`, "name": fn`), `atDispatch` a line (12-space indent) where each call is dispatched.
 */
export function toolLoopAgent(pkg: string, opts: { extra?: string; entries?: string; atDispatch?: string } = {}): Record<string, string> {
  return {
    'pyproject.toml': `[project]\nname = "${pkg}"\nversion = "0.1.0"\ndependencies = ["openai"]\n`,
    [`${pkg}/__init__.py`]: '',
    [`${pkg}/main.py`]: `import json
import subprocess

from openai import OpenAI

client = OpenAI()


def get_weather(city: str) -> str:
    return f"sunny in {city}"


def get_time(zone: str) -> str:
    return f"noon in {zone}"

${opts.extra ?? ''}

TOOLS = {"get_weather": get_weather, "get_time": get_time${opts.entries ?? ''}}


def run(task: str) -> str:
    messages = [{"role": "user", "content": task}]
    for _ in range(10):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages, tools=[])
        message = reply.choices[0].message
        if not message.tool_calls:
            print(message.content)
            return message.content
        for tool_call in message.tool_calls:
${opts.atDispatch ?? '            pass'}
            result = TOOLS[tool_call.function.name](**json.loads(tool_call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
    return ""


if __name__ == "__main__":
    import sys

    run(sys.argv[1])
`,
  };
}

/**
 * Python fixture pieces of a code generator that runs what the model wrote: the reply is written to a
 * test file, which is then run on the host. The file that holds them imports `subprocess` and makes
 * an OpenAI `client`.
 */
export const WRITE_TESTS = `def write_tests(source: str) -> str:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": source}])
    path = "generated_tests.py"
    with open(path, "w") as f:
        f.write(reply.choices[0].message.content)
    return path`;

export const RUN_TESTS = `def run_tests(path: str) -> str:
    result = subprocess.run(["python3", path], capture_output=True, text=True)
    return result.stdout`;

/**
 * A Python agent's chat loop (ten rounds of the OpenAI API), each tool call run by `dispatch`, an
 * expression of `call`: for fixtures whose subject is the tools, not the loop.
 */
export const pyToolLoop = (dispatch: string): string => `def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": sys.argv[1]}]
    for _ in range(10):
        reply = client.chat.completions.create(model="gpt-4o", messages=messages).choices[0].message
        if not reply.tool_calls:
            print(reply.content)
            return
        for call in reply.tool_calls:
            out = ${dispatch}
            messages.append({"role": "tool", "tool_call_id": call.id, "content": out})
`;


/** A Go agent's main (module example.com/agent): a model loop that offers `tools.All()` from its `pkg/tools` package. */
export const GO_TOOLS_MAIN = `package main

import (
	"context"

	"example.com/agent/pkg/tools"
	"github.com/sashabaranov/go-openai"
)

func main() {
	client := openai.NewClient("k")
	for {
		resp, _ := client.CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{Model: "gpt-4o"})
		_ = resp
		_ = tools.All()
	}
}
`;
