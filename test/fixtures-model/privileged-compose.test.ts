import { describe, expect, it } from 'vitest';
import { auditDetailed } from '../../src/audit.js';
import { RUBRIC, writeTree } from '../helpers.js';
import { toolLoopAgent } from './support.js';

/**
 * The compose file a project ships to run its agent is its default deployment: a service there
 * that runs privileged, or with the host's docker socket mounted, runs the tools with root's power
 * over the host, and the C1 cap fires as it does for code that starts such a container. An
 * override file (an opt-in overlay) and a commented-out line do not count.
 */
const compose = (service: string) => `services:\n  agent:\n    build: .\n${service}    environment:\n      - OPENAI_API_KEY\n`;

async function c1Cap(name: string, files: Record<string, string>) {
  const run = await auditDetailed(writeTree(name, { ...toolLoopAgent('composed'), ...files }), { rubricDir: RUBRIC, factsCache: false });
  return run.report.criteria.find((c) => c.id === 'C1')!.cap;
}

describe('a shipped compose file that runs the agent privileged', () => {
  it('privileged: true fires the C1 cap', async () => {
    expect(await c1Cap('compose-privileged', { 'docker-compose.yml': compose('    privileged: true\n') })).toBe(0.25);
  });

  it("the host's docker socket mounted fires it too", async () => {
    expect(await c1Cap('compose-socket', { 'compose.yaml': compose('    volumes:\n      - /var/run/docker.sock:/var/run/docker.sock\n') })).toBe(0.25);
  });

  it('an unprivileged service, an opt-in override or a commented line does not', async () => {
    expect(await c1Cap('compose-plain', { 'docker-compose.yml': compose('    # privileged: true\n'), 'docker-compose.override-gpu.yml': compose('    privileged: true\n') })).toBeNull();
  });
});
