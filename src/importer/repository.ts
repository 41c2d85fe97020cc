// A project's repository over git's smart HTTP (the token as the password of `oauth2`), turned
// into what a fixture's `repository` builds: commits replayed in order, each with the files it
// changed against its first parent, on the branches they belong to, and tags by position.
//
// Each branch's first-parent history is a line; a line that starts from another line's commit
// is replayed right after that commit, with `start_branch` naming the branch whose tip it is
// then. A branch with no commit of its own (its tip is on another branch's line) carries that
// line's commits up to its tip, and the line goes on from it; two branches at one tip cannot
// both be made (the format makes a branch only with a commit). Merge commits keep their
// changes against the first parent; commits reachable only through other parents are not
// carried. Tags name their commit as `branch~n`.
import { mkdtemp, rm } from 'node:fs/promises';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import type { FixtureProject } from '../families/world.js';
import { put } from './put.js';

type FixtureRepository = NonNullable<FixtureProject['repository']>;
type FixtureCommit = NonNullable<FixtureRepository['commits']>[number];
type FixtureTags = NonNullable<FixtureRepository['tags']>;

export interface RepositoryResult {
  repository?: FixtureRepository;
  /** Branches and tags the fixture has, for merge requests and releases to check against. */
  branches: Set<string>;
  tags: Set<string>;
  commits: number;
  /** What could not be carried, one line each. */
  notes: string[];
}

export interface RepositoryOptions {
  url: string;
  token: string;
  defaultBranch: string | null;
  /** The username a git author maps to, if any; else the project's creator authors it. */
  authorOf: (name: string, email: string) => Promise<string | undefined>;
  progress: (line: string) => void;
}

interface Line {
  branch: string;
  commits: string[];
  fork?: { line: Line; index: number };
  /** Branches with no commit of their own, by the index of their tip in this line. */
  splits: Map<number, string>;
  children: Map<number, Line[]>;
}

export async function crawlRepository(o: RepositoryOptions): Promise<RepositoryResult> {
  const dir = await mkdtemp(join(tmpdir(), 'gitlab-emulator-import-'));
  const notes: string[] = [];
  const empty: RepositoryResult = { branches: new Set(), tags: new Set(), commits: 0, notes };
  try {
    try {
      await git.clone({
        fs, http, dir, url: o.url, noCheckout: true,
        onAuth: () => ({ username: 'oauth2', password: o.token }),
        onAuthFailure: () => ({ cancel: true }),
      });
    } catch (e) {
      const message = (e as Error).message;
      // An empty repository advertises no refs: there is nothing to carry.
      if (/no refs|empty|Could not find HEAD|could not find/i.test(message)) return empty;
      const scope = /\b40[13]\b/.test(message) ? '; the token needs the read_api, read_repository or api scope' : '';
      notes.push(`repository not carried: the clone failed (${message})${scope}`);
      return empty;
    }
    return await convert(dir, o, notes);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function convert(dir: string, o: RepositoryOptions, notes: string[]): Promise<RepositoryResult> {
  const cache = {};
  const names = (await git.listBranches({ fs, dir, remote: 'origin' })).filter((b) => b !== 'HEAD');
  if (names.length === 0) return { branches: new Set(), tags: new Set(), commits: 0, notes };
  const tipOf = new Map<string, string>();
  for (const b of names) tipOf.set(b, await git.resolveRef({ fs, dir, ref: `refs/remotes/origin/${b}` }));
  const defaultBranch = o.defaultBranch && tipOf.has(o.defaultBranch) ? o.defaultBranch : names.includes('main') ? 'main' : names[0]!;
  const ordered = [defaultBranch, ...names.filter((b) => b !== defaultBranch).sort()];

  const commitCache = new Map<string, Awaited<ReturnType<typeof git.readCommit>>['commit']>();
  const readCommit = async (oid: string) => {
    let c = commitCache.get(oid);
    if (!c) {
      c = (await git.readCommit({ fs, dir, oid, cache })).commit;
      commitCache.set(oid, c);
    }
    return c;
  };

  // Lines: each branch's first-parent commits that no earlier branch has.
  const at = new Map<string, { line: Line; index: number }>();
  const lines: Line[] = [];
  const dropped: string[] = [];
  for (const branch of ordered) {
    const tip = tipOf.get(branch)!;
    const known = at.get(tip);
    if (known) {
      const last = known.line.commits.length - 1;
      if (known.index === last || known.line.splits.has(known.index)) dropped.push(branch);
      else known.line.splits.set(known.index, branch);
      continue;
    }
    const chain: string[] = [];
    let c: string | undefined = tip;
    while (c !== undefined && !at.has(c)) {
      chain.push(c);
      c = (await readCommit(c)).parent[0];
    }
    chain.reverse();
    const line: Line = { branch, commits: chain, splits: new Map(), children: new Map() };
    if (c !== undefined) {
      line.fork = at.get(c)!;
      const list = line.fork.line.children.get(line.fork.index) ?? [];
      list.push(line);
      line.fork.line.children.set(line.fork.index, list);
    }
    chain.forEach((sha, index) => at.set(sha, { line, index }));
    lines.push(line);
  }
  for (const b of dropped) notes.push(`branch '${b}' not carried: it points at the same commit as another branch`);

  /** The branch a line's commit is replayed on, and that segment's last index. */
  const segment = (line: Line, index: number): { name: string; end: number } => {
    const splits = [...line.splits.keys()].sort((a, b) => a - b);
    for (const s of splits) if (index <= s) return { name: line.splits.get(s)!, end: s };
    return { name: line.branch, end: line.commits.length - 1 };
  };

  const commits: FixtureCommit[] = [];
  const skipped = new Set<string>();
  const emit = async (line: Line) => {
    for (const [index, sha] of line.commits.entries()) {
      const seg = segment(line, index);
      const first = index === 0 || segment(line, index - 1).name !== seg.name;
      const startBranch = !first ? undefined : index > 0 ? segment(line, index - 1).name : line.fork ? segment(line.fork.line, line.fork.index).name : undefined;
      const c = await readCommit(sha);
      const parentTree = c.parent[0] ? (await readCommit(c.parent[0])).tree : null;
      const change = await diffTrees(dir, cache, parentTree, c.tree, '', skipped);
      const author = await o.authorOf(c.author.name, c.author.email);
      commits.push({
        branch: seg.name,
        ...(startBranch ? { start_branch: startBranch } : {}),
        message: await rawMessage(dir, cache, sha),
        ...(author ? { author } : {}),
        ...(Object.keys(change.files).length ? { files: change.files } : {}),
        ...(Object.keys(change.base64).length ? { base64: change.base64 } : {}),
        ...(change.executable.length ? { executable: change.executable } : {}),
        date: new Date(c.author.timestamp * 1000).toISOString(),
      });
      for (const child of line.children.get(index) ?? []) await emit(child);
    }
  };
  // Lines of their own root (orphan branches) first: a first commit without a base starts from
  // the default branch once it exists.
  for (const line of lines.filter((l) => !l.fork && l.branch !== defaultBranch)) await emit(line);
  await emit(lines[0]!);
  for (const path of skipped) notes.push(`'${path}' not carried: symbolic links and submodules have no form in a fixture`);

  const branches = new Set([...lines.map((l) => l.branch), ...lines.flatMap((l) => [...l.splits.values()])]);
  const tags: FixtureTags = {};
  for (const name of await git.listTags({ fs, dir })) {
    const oid = await git.resolveRef({ fs, dir, ref: `refs/tags/${name}` });
    const object = await git.readObject({ fs, dir, oid, cache });
    let target = oid;
    let message: string | undefined;
    if (object.type === 'tag') {
      const tag = (await git.readTag({ fs, dir, oid, cache })).tag;
      target = tag.object;
      message = tag.message.replace(/\n+$/, '');
      if (tag.type !== 'commit') {
        notes.push(`tag '${name}' not carried: it names a ${tag.type}, not a commit`);
        continue;
      }
    }
    const place = at.get(target);
    if (!place) {
      notes.push(`tag '${name}' not carried: its commit is on no branch's first-parent history`);
      continue;
    }
    const seg = segment(place.line, place.index);
    const ref = seg.end === place.index ? seg.name : `${seg.name}~${seg.end - place.index}`;
    put(tags, name, message !== undefined && message !== '' ? { ref, message } : ref);
  }
  o.progress(`  repository: ${commits.length} commits on ${branches.size} branches, ${Object.keys(tags).length} tags`);
  return {
    repository: { default_branch: defaultBranch, commits, ...(Object.keys(tags).length ? { tags } : {}) },
    branches,
    tags: new Set(Object.keys(tags)),
    commits: commits.length,
    notes,
  };
}

/** A commit's message byte for byte (isomorphic-git's readCommit reflows it to one trailing newline). */
async function rawMessage(dir: string, cache: object, oid: string): Promise<string> {
  const { object } = await git.readObject({ fs, dir, oid, format: 'content', cache });
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(object as Uint8Array);
  const start = text.indexOf('\n\n');
  return start === -1 ? '' : text.slice(start + 2);
}

interface Change {
  files: Record<string, string | null>;
  base64: Record<string, string>;
  executable: string[];
}

type Entry = { mode: string; oid: string; type: string };

async function entries(dir: string, cache: object, tree: string | null): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  if (!tree) return out;
  for (const e of (await git.readTree({ fs, dir, oid: tree, cache })).tree) out.set(e.path, { mode: e.mode, oid: e.oid, type: e.type });
  return out;
}

/** What changed from tree `a` to tree `b`, as a fixture commit's files; subtrees equal by id are skipped. */
async function diffTrees(dir: string, cache: object, a: string | null, b: string, prefix: string, skipped: Set<string>, out: Change = { files: {}, base64: {}, executable: [] }): Promise<Change> {
  if (a === b) return out;
  const before = await entries(dir, cache, a);
  const after = await entries(dir, cache, b);
  for (const [name, e] of after) {
    const path = prefix + name;
    const old = before.get(name);
    if (e.type === 'tree') {
      if (old && old.type !== 'tree') removed(old, path, out);
      await diffTrees(dir, cache, old?.type === 'tree' ? old.oid : null, e.oid, `${path}/`, skipped, out);
      continue;
    }
    if (old?.type === 'tree') await removeTree(dir, cache, old.oid, `${path}/`, out);
    if (e.mode !== '100644' && e.mode !== '100755') {
      skipped.add(path);
      continue;
    }
    if (old && old.oid === e.oid && old.mode === e.mode) continue;
    if (old && old.oid === e.oid && old.mode === '100644' && e.mode === '100755') {
      out.executable.push(path);
      continue;
    }
    const { blob } = await git.readBlob({ fs, dir, oid: e.oid, cache });
    const text = asText(blob);
    if (text === undefined) put(out.base64, path, Buffer.from(blob).toString('base64'));
    else put(out.files, path, text);
    if (e.mode === '100755') out.executable.push(path);
  }
  for (const [name, old] of before) {
    if (after.has(name)) continue;
    if (old.type === 'tree') await removeTree(dir, cache, old.oid, `${prefix}${name}/`, out);
    else removed(old, prefix + name, out);
  }
  return out;
}

function removed(old: Entry, path: string, out: Change): void {
  if (old.mode === '100644' || old.mode === '100755') put(out.files, path, null);
}

async function removeTree(dir: string, cache: object, tree: string, prefix: string, out: Change): Promise<void> {
  for (const [name, e] of await entries(dir, cache, tree)) {
    if (e.type === 'tree') await removeTree(dir, cache, e.oid, `${prefix}${name}/`, out);
    else removed(e, prefix + name, out);
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The blob as text when it is UTF-8 without NUL bytes (what `files` round-trips exactly). */
function asText(blob: Uint8Array): string | undefined {
  if (blob.includes(0)) return undefined;
  try {
    return decoder.decode(blob);
  } catch {
    return undefined;
  }
}
