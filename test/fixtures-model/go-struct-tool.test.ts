import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go MCP server whose tools are built from a struct that names them (`fxctx.NewTool(&mcp.Tool{Name:
 * "apply-resource", …}, handler)`). The apply tool patches a cluster's resource
 * (`dr.Patch(ctx, obj.GetName(), …)`) with nobody asked: a remote change, C2 cap. That a type of
 * the repository has a `GetName` method does not make the patch the repository's own call: the call
 * in its arguments is not the one the sink makes.
 */
const files: Record<string, string> = {
  'go.mod': 'module example.com/kube\n\ngo 1.22\n',
  'main.go': `package main

import (
	"example.com/kube/tools"
	"github.com/strowk/foxy-contexts/pkg/app"
)

func main() {
	app.NewBuilder().WithTool(tools.NewApplyTool).WithTool(tools.NewListTool).Run()
}
`,
  'tools/apply.go': `package tools

import (
	"context"

	"github.com/strowk/foxy-contexts/pkg/fxctx"
	"github.com/strowk/foxy-contexts/pkg/mcp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
)

func NewApplyTool(client dynamic.Interface) fxctx.Tool {
	return fxctx.NewTool(
		&mcp.Tool{
			Name:        "apply-resource",
			Description: "Create or modify a resource from a manifest",
		},
		func(ctx context.Context, args map[string]interface{}) *mcp.CallToolResult {
			obj := &unstructured.Unstructured{}
			if err := obj.UnmarshalJSON([]byte(args["manifest"].(string))); err != nil {
				return nil
			}
			dr := client.Resource(obj.GroupVersionKind().GroupVersion().WithResource("pods"))
			if _, err := dr.Patch(ctx, obj.GetName(), "application/apply-patch+yaml", []byte(args["manifest"].(string)), PatchOptions()); err != nil {
				return nil
			}
			return nil
		},
	)
}
`,
  'tools/list.go': `package tools

import (
	"context"

	"github.com/strowk/foxy-contexts/pkg/fxctx"
	"github.com/strowk/foxy-contexts/pkg/mcp"
)

type Item struct{ name string }

func (i Item) GetName() string { return i.name }

func NewListTool() fxctx.Tool {
	return fxctx.NewTool(
		&mcp.Tool{Name: "list-items", Description: "List the items"},
		func(ctx context.Context, args map[string]interface{}) *mcp.CallToolResult {
			return nil
		},
	)
}
`,
};

describe('a Go tool built from a struct that names it', () => {
  it('is a tool; its patch of a remote resource runs unasked (C2 cap), an argument call notwithstanding', async () => {
    const report = await audit(writeTree('kube-mcp', files), { rubricDir: RUBRIC, factsCache: false });
    const tools = report.agent!.tools.map((t) => ({ name: t.name, status: t.status, reaches: t.reaches }));
    expect(tools).toContainEqual({ name: 'apply-resource', status: 'ungated', reaches: ['remote'] });
    expect(tools.map((t) => t.name)).toContain('list-items');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });
});
