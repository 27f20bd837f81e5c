import picomatch from 'picomatch';
import type { Snapshot } from '../acquire/types.js';
import { looksBinary } from '../inventory/classify.js';
import { sourceText } from '../inventory/lines.js';

/** A security document of the target; read only when it is a regular text file within the size limit. */
export interface SecurityDocument {
  path: string;
  status: 'read' | 'oversize' | 'binary' | 'symlink';
  text: string | null;
}

/**
 * Finds the target's own security documents by the rubric's globs (case-insensitive) and reads
 * them through the snapshot: the inventory leaves docs out of probing, so they are read here.
 * Symlinks are listed, never followed.
 */
export async function readSecurityDocuments(snapshot: Snapshot, globs: string[], maxBytes: number): Promise<SecurityDocument[]> {
  const isMatch = picomatch(globs, { nocase: true, dot: true });
  const named = snapshot.entries.filter((e) => e.kind !== 'submodule' && isMatch(e.path)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const files = named.filter((e) => e.kind === 'file' && e.size <= maxBytes).map((e) => e.path);
  const data = await snapshot.read(files, maxBytes);
  return named.map((e): SecurityDocument => {
    if (e.kind === 'symlink') return { path: e.path, status: 'symlink', text: null };
    const buf = data.get(e.path);
    if (!buf) return { path: e.path, status: 'oversize', text: null };
    if (looksBinary(buf)) return { path: e.path, status: 'binary', text: null };
    return { path: e.path, status: 'read', text: sourceText(buf) };
  });
}
