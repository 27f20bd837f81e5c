import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go commit-message CLI that gets its API key from a command the user configured
 * (`sh -c helper`) while it builds the model client, then asks the model for a message. The
 * helper runs before any model call on every chain that reaches it: it runs the user's command,
 * not one the model wrote, so it is no code runner and fires no cap. The same shell started
 * after the model replied (a "run the suggested command" step) is one.
 */
const cli = (afterReply: string): Record<string, string> => ({
  'go.mod': 'module example.com/msggen\n\ngo 1.22\n\nrequire github.com/sashabaranov/go-openai v1.20.0\n',
  'keys/helper.go': `package keys

import (
	"context"
	"os/exec"
	"strings"
)

// FromHelper runs the configured command and returns what it prints.
func FromHelper(ctx context.Context, helperCmd string) (string, error) {
	out, err := exec.CommandContext(ctx, "/bin/sh", "-c", helperCmd).Output()
	return strings.TrimSpace(string(out)), err
}
`,
  'main.go': `package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	openai "github.com/sashabaranov/go-openai"

	"example.com/msggen/keys"
)

func newClient(ctx context.Context) (*openai.Client, error) {
	key, err := keys.FromHelper(ctx, os.Getenv("MSGGEN_KEY_HELPER"))
	if err != nil {
		return nil, err
	}
	return openai.NewClient(key), nil
}

func main() {
	ctx := context.Background()
	client, err := newClient(ctx)
	if err != nil {
		panic(err)
	}
	resp, err := client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
		Model:    openai.GPT4o,
		Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "Write a commit message for the staged diff"}},
	})
	if err != nil {
		panic(err)
	}
	suggestion := resp.Choices[0].Message.Content
	fmt.Println(suggestion)
${afterReply}
	_ = exec.Command
}
`,
});

const score = (name: string, files: Record<string, string>) => audit(writeTree(name, files), { rubricDir: RUBRIC, factsCache: false });
const capped = (report: Awaited<ReturnType<typeof score>>) => report.criteria.filter((c) => c.cap !== null).map((c) => c.id);

describe('a shell started before any model call', () => {
  it("runs the user's configured command: no code runner, no cap", async () => {
    const report = await score('helper-before-model', cli(''));
    expect(report.agent!.tools.filter((t) => t.construct === 'code runner')).toEqual([]);
    expect(capped(report)).not.toContain('C4');
  });

  it('a shell started after the model replied is a code runner that runs unasked', async () => {
    const report = await score('shell-after-model', cli('\tcmd := exec.Command("/bin/sh", "-c", suggestion)\n\t_ = cmd.Run()'));
    const runners = report.agent!.tools.filter((t) => t.construct === 'code runner');
    expect(runners.map((t) => t.status)).toContain('ungated');
    expect(capped(report)).toContain('C4');
  });
});
