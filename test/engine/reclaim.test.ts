import { describe, expect, it } from 'vitest';
import { collector, reclaimer } from '../../src/facts/reclaim.js';

describe('reclaiming the trees of scanned files', () => {
  it('gets V8\'s full collector without the --expose-gc flag', () => {
    expect(process.execArgv).not.toContain('--expose-gc');
    const gc = collector();
    expect(typeof gc).toBe('function');
    expect(() => gc!()).not.toThrow();
  });

  it('collects once the process has grown by 64 MB since the scan began or the last collection', () => {
    const MB = 1 << 20;
    let size = 100 * MB;
    const collectedAt: number[] = [];
    // A collection frees 40 MB; the check reads the size again after it, as the new floor.
    const check = reclaimer(
      () => size,
      () => () => {
        collectedAt.push(size / MB);
        size -= 40 * MB;
      },
      1,
    );
    for (const mb of [120, 163, 170, 193, 200, 223]) {
      size = mb * MB;
      check();
    }
    // 163 is 63 MB over the start; 170 is 70: collected, floor 130; 193 is 63 over; 200 is 70: collected, floor 160; 223 is 63 over.
    expect(collectedAt).toEqual([170, 200]);
  });

  it('reads the size only every 32 files by default', () => {
    let reads = 0;
    const check = reclaimer(
      () => (reads++, 0),
      () => null,
    );
    for (let i = 0; i < 100; i++) check();
    // One read to start from, then one on the 32nd, 64th and 96th file.
    expect(reads).toBe(4);
  });
});
