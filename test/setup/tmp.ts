import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The test run's temporary folder: the config hands it to the workers as TMPDIR, the global setup removes it. */
export const RUN_TMP = join(tmpdir(), `agent-audit-test-${process.pid}`);
