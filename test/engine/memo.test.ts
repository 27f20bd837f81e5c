import { describe, expect, it } from 'vitest';
import { keepBounded } from '../../src/cache/memo.js';

describe('keepBounded', () => {
  it('drops the entry set longest ago once the map holds max, and never grows past it', () => {
    const m = new Map<string, number>();
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) keepBounded(m, k, i, 3);
    expect([...m.keys()]).toEqual(['b', 'c', 'd']);
  });

  it('replaces a key already held without dropping another', () => {
    const m = new Map([['a', 1], ['b', 2]]);
    expect(keepBounded(m, 'a', 9, 2)).toBe(9);
    expect([...m.entries()]).toEqual([['a', 9], ['b', 2]]);
  });
});
