import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';
import { GO_TOOLS_MAIN as MAIN } from './support.js';

/**
 * An ask the model switches on: the shell tool asks only `if b.requiresConfirmation ||
 * explicitConfirmation`, where the first is a field its constructor sets from a parameter every
 * registration passes as `false`, and the second is read from the call's own arguments
 * (`params["requires_confirmation"]`). By default the model decides whether anyone is asked: the
 * ask is opt-in, the command runs unasked, and the caps fire. A tool constructed with `true` in
 * the same place keeps its ask.
 */

const TOOLS = (bashConfirm: string) => `package tools

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

type Tool interface {
	Name() string
	Run(ctx context.Context, params map[string]any) (string, error)
}

func All() []Tool {
	return []Tool{NewShellTool(${bashConfirm}), NewWriteTool(true)}
}

func askUser(question string) bool {
	fmt.Print(question + " [y/N] ")
	answer, _ := bufio.NewReader(os.Stdin).ReadString('\\n')
	return strings.TrimSpace(answer) == "y"
}

type ShellTool struct{ requiresConfirmation bool }

func NewShellTool(requiresConfirmation bool) *ShellTool {
	return &ShellTool{requiresConfirmation: requiresConfirmation}
}

func (t *ShellTool) Name() string { return "shell" }

func (t *ShellTool) Run(ctx context.Context, params map[string]any) (string, error) {
	command, _ := params["command"].(string)
	explicitConfirmation, _ := params["requires_confirmation"].(bool)
	if t.requiresConfirmation || explicitConfirmation {
		if !askUser("Run " + command + "?") {
			return "cancelled", nil
		}
	}
	out, err := exec.CommandContext(ctx, "sh", "-c", command).CombinedOutput()
	return string(out), err
}

type WriteTool struct{ confirmationEnabled bool }

func NewWriteTool(confirmationEnabled bool) *WriteTool {
	return &WriteTool{confirmationEnabled: confirmationEnabled}
}

func (t *WriteTool) Name() string { return "write_file" }

func (t *WriteTool) Run(ctx context.Context, params map[string]any) (string, error) {
	path, _ := params["path"].(string)
	content, _ := params["content"].(string)
	if t.confirmationEnabled {
		if !askUser("Write " + path + "?") {
			return "cancelled", nil
		}
	}
	return "ok", os.WriteFile(path, []byte(content), 0o644)
}
`;

const files = (bashConfirm: string) => ({ 'go.mod': 'module example.com/agent\n\ngo 1.22\n', 'cmd/main.go': MAIN, 'pkg/tools/tools.go': TOOLS(bashConfirm) });

describe('an ask the model switches on', () => {
  it('is opt-in where the other switch is off at every construction: the command runs unasked', async () => {
    const { tools, caps } = await auditTools('model-chosen-ask', files('false'));
    expect(tools['shell']!.status).toBe('ungated');
    const gate = tools['shell']!.paths.find((p) => p.kind === 'exec')!.gate!;
    expect(gate.kind).toBe('opt-in');
    // The switch's default is shown where the registration passes it.
    expect(gate.switchOff!.text).toContain('NewShellTool(false)');
    expect(tools['write_file']!.status).toBe('gated');
    expect(caps).toEqual(expect.arrayContaining(['C2', 'C4']));
  });

  it('holds where the tool is constructed with its switch on', async () => {
    const { tools, caps } = await auditTools('model-chosen-ask-on', files('true'));
    expect(tools['shell']!.status).toBe('gated');
    expect(caps).not.toContain('C2');
  });
});
