import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * A Go MCP server over a Google API client, split by package: the tool's handler takes a value
 * typed by one package's interface (`func(input playlist.Playlist, w io.Writer)`) and calls its
 * method (`input.Insert(w)`), which every package's type defines; the package's method binds the
 * client's request and runs it after (`call := p.Service.Playlists.Insert(…)`, `call.Do()`). The
 * handler runs that package's method, and the method changes the remote service's state: it
 * calls its own name two fields down, on the client, not itself.
 */
/** One package of the client: a type of its own behind an interface, whose `Insert` runs the client's request. */
const pkg = (name: string): string => {
  const type = name[0]!.toUpperCase() + name.slice(1);
  return `package ${name}

import (
	"io"

	"google.golang.org/api/youtube/v3"
)

type ${type} interface {
	Insert(io.Writer) error
}

type ${name}Impl struct {
	Service   *youtube.Service
	Title     string
	Confirmed bool \`json:"confirmed"\`
}

func New${type}(title string) ${type} {
	return &${name}Impl{Title: title}
}

func (p *${name}Impl) Insert(writer io.Writer) error {
	call := p.Service.${type}s.Insert([]string{"snippet"}, &youtube.${type}{})
	_, err := call.Do()
	return err
}
`;
};

const files = {
  ...Object.fromEntries(['channel', 'comment', 'playlist', 'video'].map((k) => [`pkg/${k}/${k}.go`, pkg(k)])),
  'cmd/playlist/gen.go': `package playlist

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func gen[T any](name string, run func(input T, w io.Writer) error) mcp.ToolHandlerFor[T, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, args T) (*mcp.CallToolResult, any, error) {
		return nil, nil, run(args, io.Discard)
	}
}
`,
  'cmd/playlist/insert.go': `package playlist

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/yt/cmd"
	"example.com/yt/pkg/playlist"
)

const insertTool = "playlist-insert"

func init() {
	mcp.AddTool(
		cmd.Server, &mcp.Tool{Name: insertTool, Description: "Create a playlist"},
		gen(insertTool, func(input playlist.Playlist, writer io.Writer) error {
			return input.Insert(writer)
		}),
	)
}
`,
  'cmd/root.go': `package cmd

import "github.com/modelcontextprotocol/go-sdk/mcp"

var Server = mcp.NewServer(&mcp.Implementation{Name: "yt"}, nil)
`,
  'go.mod': `module example.com/yt

go 1.22
`,
};

describe('a Go tool over a Google API client, typed by package', () => {
  it("reaches the package's method and the remote change it makes, unasked: C2 cap", async () => {
    const report = await audit(writeTree('yt', files), { rubricDir: RUBRIC, factsCache: false });
    const tool = report.agent!.tools.find((t) => t.name === 'playlist-insert');
    expect(tool?.reaches).toEqual(['remote']);
    expect(tool?.paths[0]?.sink.path).toBe('pkg/playlist/playlist.go');
    expect(report.criteria.find((c) => c.id === 'C2')!.cap).not.toBeNull();
  });
});
