import { describe, expect, it } from 'vitest';
import { excludedByPath } from '../src/inventory/classify.js';

describe('what is not product code, by path', () => {
  it.each([
    ['extensions/cli/smoke-test.mjs', 'test'],
    ['scripts/run_test.js', 'test'],
    ['src/tools/shell.test.ts', 'test'],
    ['auto_eval/run_eval.py', 'test'],
    ['project/model-benchmarks/bench.py', 'test'],
    ['pkg/runner_test.go', 'test'],
    ['manual-testing-sandbox/next-edit/app.ts', 'test'],
    ['testing-utils/mock.ts', 'test'],
    ['agent_swe_bench_experimental/run.py', 'test'],
    ['src/agentic/swebench/harness.rs', 'test'],
    ['src/tools/swept_bench.py', null],
    ['benchmark_collection/1_create_graph.py', 'test'],
    ['review_iclr_bench/run.py', 'test'],
    ['rdagent/scenarios/rl/autorl_bench/agents/train.py', 'test'],
    ['src/workbench/app.ts', null],
    ['evaluation/math500/run_infer.py', 'test'],
    ['real_agents/data_agent/evaluation/python_evaluator.py', null],
    ['src/latest.ts', null],
    ['src/attest.ts', null],
    ['src/tools/contest.js', null],
    ['src/testing_ground.ts', null],
    ['claude_config_example.json', 'docs'],
    ['config/settings.example.yaml', 'docs'],
    ['contribute/conf/demo.json', 'docs'],
    ['hld/api/openapi.yaml', 'docs'],
    ['.mcp.json', 'dev'],
    ['src/config/mcp.json', null],
    ['agent.yaml', null],
    ['src/prompts/templates.json', null],
  ])('%s → %s', (path, reason) => {
    expect(excludedByPath(path)).toBe(reason);
  });
});
