import { describe, expect, it } from 'vitest';
import { acquire } from '../src/acquire/index.js';
import { buildInventory } from '../src/inventory/index.js';
import { writeTree } from './helpers.js';

/**
 * A root `scripts/` folder is developer tooling, unless it is a Python package the product imports:
 * a research agent whose entry point (`run.py`) imports `scripts.utils` and launches
 * `scripts/task_executor.py` keeps all of its code there.
 */
const tree = (entry: string): Record<string, string> => ({
  'run.py': entry,
  'scripts/__init__.py': '',
  'scripts/utils.py': 'def say(text):\n    print(text)\n',
  'scripts/task_executor.py': 'import os\n\n\ndef run(command):\n    os.system(command)\n',
  'tools/release.py': 'print("release")\n',
});

const inventory = async (name: string, entry: string) => buildInventory(await acquire(writeTree(name, tree(entry)), {}));

describe('a root scripts package', () => {
  it('is product code where the product imports it', async () => {
    const inv = await inventory('scripts-imported', 'import os\nfrom scripts.utils import say\n\nsay("hi")\nos.system("python scripts/task_executor.py")\n');
    expect(inv.files.map((f) => f.path)).toEqual(['run.py', 'scripts/__init__.py', 'scripts/task_executor.py', 'scripts/utils.py', 'tools/release.py']);
    expect(inv.excluded['dev']).toBeUndefined();
  });

  it('is developer tooling where nothing imports it, and is counted so', async () => {
    const inv = await inventory('scripts-unused', 'print("hello")\n');
    expect(inv.files.map((f) => f.path)).toEqual(['run.py', 'tools/release.py']);
    expect(inv.excluded['dev']).toEqual({ count: 3, examples: ['scripts/__init__.py', 'scripts/task_executor.py', 'scripts/utils.py'] });
    expect(inv.languages).toEqual({ python: 2 });
  });
});
