import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderHash } from '../../src/cache/build.js';

/**
 * A folder's hash (a rubric's identity) is kept per process by what stat says of its entries: an
 * edit must always give a new hash, even one of the same size made within the file times' tick.
 */
describe('folder hash', () => {
  it('sees an edit of the same size made at once, and one made to a folder it kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folder-hash-'));
    writeFileSync(join(dir, 'a.yaml'), 'level: 1\n');
    const first = folderHash(dir);
    writeFileSync(join(dir, 'a.yaml'), 'level: 2\n');
    const second = folderHash(dir);
    expect(second).not.toBe(first);
    // Settled (its times set back an hour): kept, and still any rewrite changes the hash.
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(join(dir, 'a.yaml'), past, past);
    const settled = folderHash(dir);
    expect(settled).toBe(second);
    expect(folderHash(dir)).toBe(settled);
    writeFileSync(join(dir, 'a.yaml'), 'level: 3\n');
    utimesSync(join(dir, 'a.yaml'), past, past);
    const third = folderHash(dir);
    writeFileSync(join(dir, 'b.yaml'), '');
    expect(new Set([first, second, third, folderHash(dir)]).size).toBe(4);
  });
});
