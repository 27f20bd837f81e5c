/** One file of the target as git (or the folder walk) lists it; nothing is read yet. */
export interface TreeEntry {
  /** Repo-relative path with forward slashes. */
  path: string;
  /** Size in bytes as recorded by git (or lstat for a folder). */
  size: number;
  /** Symlinks and submodules are listed so the inventory can count them, but never read or followed. */
  kind: 'file' | 'symlink' | 'submodule';
  /** The git blob id, when read from a git object store. */
  oid?: string;
}

/**
 * A read-only view of the target at one commit. For git targets everything is read from the
 * object store (ls-tree / cat-file), so no working tree, filter, hook or symlink of the target is
 * ever used.
 */
export interface Snapshot {
  kind: 'git' | 'folder';
  /** What the user asked for, as given (for messages). */
  input: string;
  /** Full 40-hex commit id, or null for an unpinned plain folder. */
  commit: string | null;
  /** https://github.com/owner/repo (no .git) when the target is on GitHub, else null. */
  webUrl: string | null;
  /** A human name: owner/repo for GitHub, else the folder's base name. */
  name: string;
  /** For a local git repository scored at HEAD: tracked files whose content differs from HEAD. */
  dirtyFiles: number;
  /** Every entry of the tree at the commit, sorted by path. */
  entries: TreeEntry[];
  /** True when the listing stopped early (200,000 entries, or folder depth past 64). */
  truncated?: boolean;
  /**
   * Reads the given files (kind 'file' only), in one batch. Files larger than maxBytes are not
   * read and come back with data null. Order of results follows paths.
   */
  read(paths: string[], maxBytes: number): Promise<Map<string, Buffer | null>>;
}

/** Errors the user caused (bad URL, unknown commit, not a repository): exit code 2, one line. */
export class InputError extends Error {
  override name = 'InputError';
}
