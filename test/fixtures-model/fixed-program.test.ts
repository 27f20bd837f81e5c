import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../src/facts/extract.js';
import { planOf, SINK } from '../../src/facts/plan.js';
import { loadRubric } from '../../src/rubric/load.js';
import { RUBRIC } from '../helpers.js';

/**
 * `os.system` and `os.popen` run a command line through a shell. One whose program is written out
 * and is no shell or interpreter (`" ".join(["cp", src, dst])`, `"git status --short"`) starts that
 * program: no command chosen at run time, so no `exec` sink of the agent model (model.code-sink
 * reads those), as exec.host-spawn already reads the same calls. A command line held in a
 * variable, or one that names a shell, is one.
 */
const rubric = loadRubric(RUBRIC);
const plan = planOf(rubric, rubric.probes);
const execSinks = (line: string) =>
  extractFacts({ path: 'tools.py', language: 'python', text: `import os\n\n\ndef save(src, dst, cmd):\n    ${line}\n` }, plan)
    .findings.filter((f) => f.probe === `${SINK}exec`)
    .map((f) => f.text);

describe('a shell command line whose program is written out', () => {
  it.each([['os.system(" ".join(["cp", str(src), str(dst)]))'], ['os.popen("git status --short").read()'], ['subprocess.getoutput("git rev-parse HEAD")']])('is no exec sink: %s', (line) => {
    expect(execSinks(line)).toEqual([]);
  });

  it.each([['os.system(cmd)'], ['os.system(" ".join(["sh", "-c", cmd]))'], ['os.popen("bash -c " + cmd)'], ['subprocess.getoutput(cmd)']])('is an exec sink when the program is a shell or a variable: %s', (line) => {
    expect(execSinks(line)).toHaveLength(1);
  });
});
