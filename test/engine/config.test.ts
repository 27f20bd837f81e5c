import { describe, expect, it } from 'vitest';
import { configHits } from '../../src/facts/config.js';
import { testProbe } from '../../src/probes/selftest.js';
import { probeSchema } from '../../src/rubric/schema.js';

/**
 * The `config` engine reads a key path in the target's JSON, YAML and TOML files: what a shipped
 * settings file turns on by default. No bundled probe uses it yet; these tests keep it honest for a
 * rubric that does.
 */
describe('config engine: values at a key path', () => {
  it('selects through maps and lists with * and reports the line of each value', () => {
    const json = '{\n  "mcpServers": {\n    "fs": { "command": "npx", "args": ["-y", "server-fs"] },\n    "git": { "command": "uvx" }\n  }\n}\n';
    const hits = configHits('settings.json', json, ['mcpServers', '*', 'command']);
    expect(hits.map((h) => h.shown)).toEqual(['npx', 'uvx']);
    expect(hits.map((h) => json.slice(0, h.offset).split('\n').length)).toEqual([3, 4]);
  });
  it('reads YAML (a comment is not a value) and TOML, and nothing from a file that does not parse', () => {
    const yaml = '# approval: never\napproval: on-request\nsandbox:\n  mode: workspace-write\n';
    expect(configHits('config.yaml', yaml, ['approval']).map((h) => h.shown)).toEqual(['on-request']);
    expect(configHits('config.yaml', yaml, ['sandbox', 'mode']).map((h) => h.shown)).toEqual(['workspace-write']);
    expect(configHits('config.toml', '[sandbox]\nmode = "read-only"\n', ['sandbox', 'mode']).map((h) => h.shown)).toEqual(['read-only']);
    expect(configHits('broken.json', '{"approval": ', ['approval'])).toEqual([]);
    expect(configHits('notes.md', 'approval: never', ['approval'])).toEqual([]);
  });
  it('runs as a probe: a matching value is found, a comment or another key is not', async () => {
    const probe = probeSchema.parse({
      id: 'approval.config-never',
      title: 'shipped settings turn approval off',
      absent: 'no shipped settings file turns approval off',
      criteria: ['C2'],
      engine: 'config',
      files: ['*.json', '*.{yaml,yml}', '*.toml'],
      select: 'approval',
      matches: '^(never|off|false)$',
      tests: {
        match: [
          { lang: 'yaml', file: 'defaults.yaml', code: 'approval: never\n' },
          { lang: 'json', file: 'settings.json', code: '{"approval": "off"}\n' },
        ],
        noMatch: [
          { lang: 'yaml', file: 'defaults.yaml', code: '# approval: never\napproval: on-request\n' },
          { lang: 'toml', file: 'config.toml', code: 'mode = "never"\n' },
        ],
      },
    });
    expect((await testProbe(probe)).filter((o) => !o.ok)).toEqual([]);
  });
});
