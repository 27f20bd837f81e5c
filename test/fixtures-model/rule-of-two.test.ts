import { describe, expect, it } from 'vitest';
import { summaryParagraph } from '../../src/render/prose.js';
import { scoredAgent as scored, searchAgent } from './search-agent.js';

/**
 * The Rule of Two's legs are read in the default session whether or not each action is asked
 * (METHOD §7, as reviewers read it): an approval narrows what a hijacked session does, it does not
 * keep untrusted input, sensitive reach and state change apart.
 */
const askedShellTool = `

@tool
def extra_tool(command: str) -> str:
    """Run a shell command."""
    if input(f"Run {command}? [y/N] ").strip().lower() != "y":
        return "refused"
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
`;

const readFileTool = `

@tool
def extra_tool(path: str) -> str:
    """Read a file."""
    with open(path) as f:
        return f.read()
`;

const legs = (r: Awaited<ReturnType<typeof scored>>['report']) => [r.ruleOfTwo.A.holds, r.ruleOfTwo.B.holds, r.ruleOfTwo.C.holds, r.ruleOfTwo.sameDefaultSession];

describe('Rule of Two', () => {
  it('a web search tool alone: untrusted input and egress, nothing sensitive in reach', async () => {
    const { report } = await scored('r2-search', searchAgent());
    expect(legs(report)).toEqual([true, false, true, false]);
    expect(report.ruleOfTwo.A.evidence.some((e) => e.kind === 'lines' && e.path === 'agent/main.py')).toBe(true);
  });

  it('a host shell asked before every command: command output in, the account in reach, state changed: one session', async () => {
    const { report } = await scored('r2-asked-shell', searchAgent(askedShellTool, 'import subprocess'));
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).toBeNull();
    expect(legs(report)).toEqual([true, true, true, true]);
    // The search tool sends requests unasked: injected text can still drive that.
    expect(summaryParagraph(report)).toContain('can drive an action that changes state or sends data out');
  });

  it('the asked shell beside a tool that only reads: injected text can only propose the action', async () => {
    const tree = searchAgent(askedShellTool, 'import subprocess');
    tree['agent/main.py'] = tree['agent/main.py'].replace('requests.get("https://search.example.com/api", params={"q": query}, timeout=10).text', 'open(query).read()');
    const { report } = await scored('r2-asked-shell-reader', tree);
    expect(legs(report)).toEqual([true, true, true, true]);
    expect(summaryParagraph(report)).toContain('can propose an action that changes state or sends data out, which a person approves first');
  });

  it('a file tool that reads any path: the files it returns are input, the files it can read are in reach', async () => {
    const { report } = await scored('r2-read', searchAgent(readFileTool));
    expect(legs(report)).toEqual([true, true, true, true]);
    expect(report.surface.find((s) => s.id === 'untrusted-input')?.value).toBe('yes');
  });
});

describe('Rule of Two [B]: saved conversations', () => {
  it('a search agent that appends each exchange to a history file keeps the user\'s conversations: sensitive data', async () => {
    const tree = searchAgent('', 'import json');
    tree['agent/main.py'] = tree['agent/main.py'].replace(
      '    print(llm.invoke(input("> ")).content)',
      '    messages = [{"role": "user", "content": input("> ")}]\n    messages.append({"role": "assistant", "content": llm.invoke(messages).content})\n    with open("history.json", "w") as f:\n        json.dump(messages, f)',
    );
    const { report } = await scored('r2-history', tree);
    expect(legs(report)).toEqual([true, true, true, true]);
    expect(report.ruleOfTwo.B.evidence.some((e) => e.kind === 'lines' && e.path === 'agent/main.py')).toBe(true);
  });
});

describe('agent surface: external credentials', () => {
  it('a host shell inherits the user account and its credentials: yes; a web search alone: no', async () => {
    const shell = await scored('r2-asked-shell', searchAgent(askedShellTool, 'import subprocess'));
    expect(shell.report.surface.find((s) => s.id === 'external-credentials')?.value).toBe('yes');
    const search = await scored('r2-search', searchAgent());
    expect(search.report.surface.find((s) => s.id === 'external-credentials')?.value).toBe('no');
  });
});
