import { describe, expect, it } from 'vitest';
import { auditTools } from '../helpers.js';

/**
 * A monorepo of two Python projects: the agent's backend, whose MCP tool saves a report through
 * its own `services/file_service.py` (an upload to the storage API), and the sandbox service that
 * runs in the agent's container, whose own `services/file.py` writes files to its disk. Both
 * folders are called `services`; the call is the backend's, and its tool writes no local file.
 */
const files: Record<string, string> = {
  'backend/pyproject.toml': '[project]\nname = "backend"\nversion = "0.1.0"\ndependencies = ["mcp", "httpx"]\n',
  'backend/app/__init__.py': '',
  'backend/app/services/__init__.py': '',
  'backend/app/services/file_service.py': `import httpx


class FileService:
    async def upload_file(self, name: str, text: str) -> str:
        async with httpx.AsyncClient() as client:
            response = await client.post("https://storage.example.com/files", json={"name": name, "text": text})
        return response.json()["id"]
`,
  'backend/app/server.py': `from mcp.server.fastmcp import FastMCP

from app.services.file_service import FileService

mcp = FastMCP("reports")
service = FileService()


@mcp.tool()
async def save_report(name: str, text: str) -> str:
    """Save a report."""
    return await service.upload_file(name, text)


if __name__ == "__main__":
    mcp.run()
`,
  'sandbox/pyproject.toml': '[project]\nname = "sandbox"\nversion = "0.1.0"\ndependencies = ["fastapi"]\n',
  'sandbox/app/__init__.py': '',
  'sandbox/app/services/__init__.py': '',
  'sandbox/app/services/file.py': `class FileService:
    async def upload_file(self, path: str, text: str) -> str:
        with open(path, "w") as f:
            f.write(text)
        return path
`,
  'sandbox/app/main.py': `from fastapi import FastAPI

from app.services.file import FileService

app = FastAPI()
files = FileService()


@app.post("/upload")
async def upload(path: str, text: str):
    return await files.upload_file(path, text)
`,
};

// The same call made on a field whose class the code does not say (`self._storage`, handed in),
// from a runner in the backend's `services/`: the folder's methods are the caller's project's.
const handedIn: Record<string, string> = {
  ...files,
  'backend/app/services/runner.py': `class Runner:
    def __init__(self, storage):
        self._storage = storage

    async def save(self, name: str, text: str) -> str:
        return await self._storage.upload_file(name, text)
`,
  'backend/app/server.py': files['backend/app/server.py']!.replace('from app.services.file_service import FileService', 'from app.services.file_service import FileService\nfrom app.services.runner import Runner').replace('service = FileService()', 'runner = Runner(FileService())').replace('await service.upload_file(name, text)', 'await runner.save(name, text)'),
};

describe("a call into a package whose folder name another project of the monorepo shares", () => {
  it('runs the method of the folder of that name in its own project, on a field of no known class', async () => {
    const { tools, caps } = await auditTools('manus-runner', handedIn);
    expect(tools.save_report?.reaches ?? []).not.toContain('write');
    expect(caps).not.toContain('C2');
  });


  it("runs the caller's own project's method: the tool reaches the storage API, not the sandbox's disk", async () => {
    const { tools, caps } = await auditTools('manus', files);
    expect(tools.save_report?.reaches ?? []).not.toContain('write');
    expect(caps).not.toContain('C2');
  });
});
