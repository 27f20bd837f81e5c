import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';

/**
 * C8 C for a server whose tools reach no command, process or file: the key it holds stays out of
 * every tool's reach and out of what the model is sent, so some keys are protected (L1). Give the
 * model a host shell and the key in the environment is one `env` away (L0).
 */
const server = (tool: string): Record<string, string> => ({
  'pyproject.toml': '[project]\nname = "weather-mcp"\nversion = "0.1.0"\n[project.scripts]\nweather-mcp = "weather_mcp.server:main"\n',
  'weather_mcp/__init__.py': '',
  'weather_mcp/server.py': `import os
import subprocess

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")
API_KEY = os.environ["WEATHER_API_KEY"]


@mcp.tool()
def ${tool}


def main():
    mcp.run()
`,
});

const FORECAST = 'forecast(city: str) -> str:\n    return httpx.get("https://api.weather.example/v1/forecast", params={"q": city}, headers={"Authorization": API_KEY}).text';
const SHELL = 'run(command: str) -> str:\n    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout';

const c8c = async (name: string, tool: string) => (await audit(writeTree(name, server(tool)), { rubricDir: RUBRIC, factsCache: false })).criteria.find((c) => c.id === 'C8')!.levels.C;

describe('keys a server holds where its tools reach nothing local', () => {
  it('stay out of every tool\'s reach (C8 C L1)', async () => {
    expect(await c8c('keys-no-reach', FORECAST)).toBe(1);
  });

  it('are one command away from a host shell the model runs (C8 C L0)', async () => {
    expect(await c8c('keys-shell', SHELL)).toBe(0);
  });
});
