import { createHash } from 'node:crypto';
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { InputError } from './types.js';

/** What a target string means, decided without running git (only the local file system is looked at). */
export type ParsedTarget =
  | { kind: 'local-git'; path: string; name: string; bare?: boolean }
  | { kind: 'folder'; path: string; name: string }
  | {
      kind: 'remote';
      /** What git clones; credentials in it are never shown in messages. */
      url: string;
      /** Cache path segments before sanitising: host, owner (may contain '/'), repo. */
      host: string;
      owner: string;
      repo: string;
      webUrl: string | null;
      name: string;
    };

const GH_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/; // GitHub user/org names
const REPO_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;
const ALLOWED_SCHEMES = new Set(['https', 'http', 'ssh', 'git', 'file', 'git+ssh', 'ssh+git']);

function expected(target: string): InputError {
  return new InputError(
    `cannot use target '${target}': expected an existing local path, owner/repo, or a git URL (https://, ssh://, git@host:path, file://)`,
  );
}

function github(owner: string, repo: string, url: string): ParsedTarget {
  repo = repo.replace(/\.git$/, '');
  if (!GH_NAME.test(owner) || !REPO_NAME.test(repo)) throw new InputError(`invalid GitHub repository '${owner}/${repo}'`);
  return {
    kind: 'remote',
    url,
    host: 'github.com',
    owner,
    repo,
    webUrl: `https://github.com/${owner}/${repo}`,
    name: `${owner}/${repo}`,
  };
}

/** https://github.com/owner/repo for any spelling of a GitHub remote, else null (used for local repos' origin too). */
export function githubWebUrl(url: string): string | null {
  const m =
    /^(?:https?|git|ssh|git\+ssh|ssh\+git):\/\/(?:[^@/]+@)?(?:www\.)?github\.com(?::\d+)?\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/i.exec(url) ??
    /^(?:[^@/:]+@)?github\.com:\/?([^/]+)\/([^/]+?)(?:\.git)?\/?$/i.exec(url);
  if (!m || !GH_NAME.test(m[1]!) || !REPO_NAME.test(m[2]!)) return null;
  return `https://github.com/${m[1]}/${m[2]}`;
}

function basenameNoGit(p: string): string {
  const parts = p.split(/[/\\]/).filter((s) => s !== '');
  return (parts.at(-1) ?? p).replace(/\.git$/, '') || p;
}

function parseUrl(target: string): ParsedTarget {
  // Remote-helper syntax (`ext::sh -c ...`, `fd::`) runs programs; never hand it to git.
  if (/^[A-Za-z0-9+.-]+::/.test(target)) throw expected(target);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(target)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (!ALLOWED_SCHEMES.has(scheme)) throw expected(target);
    let u: URL;
    try {
      u = new URL(target);
    } catch {
      throw expected(target);
    }
    if (u.hostname.startsWith('-') || decodeURIComponent(u.username).startsWith('-')) throw expected(target);
    const gh = githubWebUrl(target);
    if (/^(www\.)?github\.com$/i.test(u.hostname)) {
      if (!gh) throw new InputError(`cannot use target '${target}': expected https://github.com/owner/repo`);
      const [, owner, repo] = new URL(gh).pathname.split('/');
      // Normalise https spellings (trailing slash, http) to one clone URL; keep ssh/git as given.
      return github(owner!, repo!, scheme.startsWith('http') ? `${gh}.git` : target);
    }
    const segs = decodeURIComponent(u.pathname).split('/').filter((s) => s !== '');
    if (segs.length === 0) throw expected(target);
    const repo = segs.at(-1)!.replace(/\.git$/, '');
    return {
      kind: 'remote',
      url: target,
      host: scheme === 'file' ? 'file' : u.host,
      owner: segs.slice(0, -1).join('/'),
      repo,
      webUrl: null,
      name: basenameNoGit(segs.at(-1)!),
    };
  }
  // scp-like: [user@]host:path. The host needs a dot (or be localhost) so `C:` and typos don't match.
  const scp = /^(?:([A-Za-z0-9._~-]+)@)?([A-Za-z0-9.-]+):(?!\/\/)(.+)$/.exec(target);
  if (scp && (scp[2]!.includes('.') || scp[2] === 'localhost')) {
    const [, user, host, p] = scp as unknown as [string, string | undefined, string, string];
    if (host.startsWith('-') || user?.startsWith('-') || p.startsWith('-')) throw expected(target);
    const gh = githubWebUrl(target);
    if (/^(www\.)?github\.com$/i.test(host)) {
      if (!gh) throw new InputError(`cannot use target '${target}': expected git@github.com:owner/repo.git`);
      const [, owner, repo] = new URL(gh).pathname.split('/');
      return github(owner!, repo!, target);
    }
    const segs = p.split('/').filter((s) => s !== '');
    if (segs.length === 0) throw expected(target);
    return {
      kind: 'remote',
      url: target,
      host,
      owner: segs.slice(0, -1).join('/'),
      repo: segs.at(-1)!.replace(/\.git$/, ''),
      webUrl: null,
      name: basenameNoGit(segs.at(-1)!),
    };
  }
  throw expected(target);
}

/**
 * Decides what kind of target the user means. Only looks at the file system (an existing path
 * wins over the owner/repo shorthand); never runs git.
 */
export function parseTarget(target: string, cwd: string = process.cwd()): ParsedTarget {
  // Control characters and leading dashes have no business in a path or URL we pass to git.
  // eslint-disable-next-line no-control-regex
  if (target.trim() === '' || /[\x00-\x1f\x7f]/.test(target)) throw expected(JSON.stringify(target));
  if (!target.includes('://')) {
    const looksBare = (dir: string) => {
      try {
        return lstatSync(path.join(dir, 'HEAD')).isFile() && lstatSync(path.join(dir, 'objects')).isDirectory() && lstatSync(path.join(dir, 'refs')).isDirectory();
      } catch {
        return false;
      }
    };
    const abs = path.resolve(cwd, target);
    let st;
    try {
      st = statSync(abs); // the user named this path, so following a symlink here is intended
    } catch {
      st = null;
    }
    if (st) {
      if (!st.isDirectory()) throw new InputError(`target '${target}' is not a directory`);
      let dotGit;
      try {
        dotGit = lstatSync(path.join(abs, '.git'));
      } catch {
        dotGit = null;
      }
      const name = path.basename(abs) || abs;
      // A symlinked .git is not trusted as a repository marker; the folder walk skips .git anyway.
      if (dotGit && (dotGit.isDirectory() || dotGit.isFile())) return { kind: 'local-git', path: abs, name };
      // A bare repository (a mirror, a server-side repo) is read from its objects like any other.
      if (looksBare(abs)) return { kind: 'local-git', path: abs, name: name.replace(/\.git$/, ''), bare: true };
      return { kind: 'folder', path: abs, name };
    }
    if (target.startsWith('-')) throw expected(target);
    const short = /^(?:(?:www\.)?github\.com\/)?([^/]+)\/([^/]+?)(?:\.git)?\/?$/i.exec(target);
    if (short && GH_NAME.test(short[1]!) && REPO_NAME.test(short[2]!)) {
      return github(short[1]!, short[2]!, `https://github.com/${short[1]}/${short[2]}.git`);
    }
    if (/^(\.{1,2}|~)?[/\\]/.test(target)) throw new InputError(`target '${target}': no such directory`);
  }
  return parseUrl(target);
}

/** The URL with any password replaced, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, '$1:***@');
}

/**
 * `<host>/<owner>/<repo>.git` as safe path segments: [A-Za-z0-9._-] only, never '.' or '..'.
 * Outside GitHub the owner gets a hash of the URL, because sanitising and flattening nested
 * paths (group/sub, file:///a/b) could otherwise map two different remotes onto one entry.
 */
export function cacheSegments(t: { url: string; host: string; owner: string; repo: string }): string[] {
  const clean = (s: string) => {
    const c = s.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
    return c === '' || /^\.+$/.test(c) ? `_${c.replace(/\./g, '_')}` : c;
  };
  const host = t.host.toLowerCase();
  if (host === 'github.com') return [host, t.owner.toLowerCase(), `${t.repo.toLowerCase()}.git`].map(clean);
  const hash = createHash('sha256').update(t.url).digest('hex').slice(0, 10);
  const owner = `${t.owner.split('/').filter((s) => s !== '').join('_').slice(-60)}-${hash}`;
  return [clean(host), clean(owner), clean(`${t.repo}.git`)];
}
