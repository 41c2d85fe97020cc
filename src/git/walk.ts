// What upload-pack sends (gitprotocol-pack, "Packfile Negotiation"): every object reachable from
// the commits the client wants and not from those it has, cut at a depth for a shallow fetch.
import type { ObjectType } from './format.js';
import type { RepositoryObjects, TreeChildren } from './objects.js';
import type { ChildPositions, StoredPack } from './packfile.js';

export interface Selection {
  /** Objects to send, commits first, each once. */
  objects: { oid: string; type: ObjectType }[];
  /** Commits sent without their parents (the client's new shallow boundary). */
  shallow: string[];
  /** Commits the client had as shallow that it now gets the parents of. */
  unshallow: string[];
  /** A kept pack that holds exactly `objects` and nothing else (a clone of what one push brought), when the walk found one. */
  pack?: StoredPack;
}

export interface SelectOptions {
  /** Commits (or tags) the client asked for. */
  wants: readonly string[];
  /** Objects the client has (only those the repository has too count). */
  haves: readonly string[];
  /** `deepen N`: send at most N commits along each line of history from the wants. */
  depth?: number;
  /** `deepen-relative`: `depth` counts from the client's shallow commits, not from the wants. */
  relative?: boolean;
  /** `deepen-since T`: send only commits made (by their committer's time) at T seconds or after. */
  since?: number;
  /** The client's current shallow commits. */
  clientShallow?: readonly string[];
}

/** Peels tags to what they point at, collecting the tag objects on the way. */
async function peelWant(repo: RepositoryObjects, oid: string, tags: { oid: string; type: ObjectType }[], seen: Set<string>): Promise<{ oid: string; type: ObjectType } | null> {
  for (let i = 0; i < 20; i++) {
    const type = await repo.type(oid);
    if (!type) return null;
    if (type !== 'tag') return { oid, type };
    if (!seen.has(oid)) {
      seen.add(oid);
      tags.push({ oid, type });
    }
    oid = (await repo.readTag(oid)).object;
  }
  return null;
}

/** A shallow request that leaves no commit to send (git: "no commits selected for shallow requests"). */
export class NothingSelected extends Error {}

export async function selectObjects(repo: RepositoryObjects, o: SelectOptions): Promise<Selection> {
  // A clone (no haves, no depth) of history that one kept pack holds: walked over the pack's positions.
  if (o.haves.length === 0 && o.depth === undefined && o.since === undefined && !o.clientShallow?.length) {
    const fromPack = await selectInPack(repo, o.wants);
    if (fromPack) return fromPack;
  }
  // Commits the client has: every one reachable from its haves (its shallow commits cut that walk).
  const clientShallow = new Set(o.clientShallow ?? []);
  const common = new Set<string>();
  const stack: string[] = [];
  for (const h of o.haves) if (repo.has(h) && (await repo.type(h)) === 'commit') stack.push(h);
  const haveTips = [...stack];
  while (stack.length) {
    const c = stack.pop()!;
    if (common.has(c)) continue;
    common.add(c);
    if (!clientShallow.has(c)) for (const p of (await repo.readCommit(c)).parents) if (repo.has(p)) stack.push(p);
  }
  // Trees and blobs the client has: those of the commits it named.
  const known = new Set<string>();
  const markTree = async (tree: string) => {
    const todo = [tree];
    while (todo.length) {
      const t = todo.pop()!;
      if (known.has(t)) continue;
      known.add(t);
      const { trees, blobs } = await repo.treeChildren(t);
      for (const s of trees) todo.push(s);
      for (const b of blobs) known.add(b);
    }
  };
  for (const c of haveTips) await markTree((await repo.readCommit(c)).tree);

  const out: { oid: string; type: ObjectType }[] = [];
  const sent = new Set<string>();
  const roots: { oid: string; type: ObjectType }[] = [];
  for (const w of o.wants) {
    const peeled = await peelWant(repo, w, out, sent);
    if (peeled) roots.push(peeled);
  }
  const deepening = o.depth !== undefined || o.since !== undefined;
  // Commits, breadth first from the wants, to the depth (or the time) asked for.
  const shallow: string[] = [];
  const unshallow: string[] = [];
  const depthOf = new Map<string, number>();
  let frontier: string[] = [];
  const trees: string[] = [];
  for (const r of roots) {
    if (r.type === 'commit') {
      if (o.since !== undefined && (await repo.readCommit(r.oid)).committer.timestamp < o.since) throw new NothingSelected();
      if (!depthOf.has(r.oid)) {
        // 0: not counted (a relative deepening counts from the client's shallow commits only).
        depthOf.set(r.oid, o.relative ? 0 : 1);
        frontier.push(r.oid);
      }
    } else if (r.type === 'tree') trees.push(r.oid);
    else if (!sent.has(r.oid) && !known.has(r.oid)) {
      sent.add(r.oid);
      out.push(r);
    }
  }
  while (frontier.length) {
    const next: string[] = [];
    for (const c of frontier) {
      const commit = await repo.readCommit(c);
      const has = common.has(c);
      const d = o.relative && clientShallow.has(c) ? 1 : depthOf.get(c)!;
      if (!has && !sent.has(c)) {
        sent.add(c);
        out.push({ oid: c, type: 'commit' });
        trees.push(commit.tree);
      }
      let parents = commit.parents.filter((p) => repo.has(p));
      if (o.depth !== undefined && d > 0 && d >= (o.relative ? o.depth + 1 : o.depth)) {
        if (!has && parents.length > 0) shallow.push(c);
        continue;
      }
      if (o.since !== undefined) {
        const young: string[] = [];
        for (const p of parents) if ((await repo.readCommit(p)).committer.timestamp >= o.since) young.push(p);
        if (!has && young.length < parents.length) shallow.push(c);
        parents = young;
      }
      // The client has this commit's history, unless the commit is one of its shallow ends.
      if (has && (!clientShallow.has(c) || !deepening)) continue;
      if (clientShallow.has(c) && parents.length > 0) unshallow.push(c);
      for (const p of parents) {
        if (depthOf.has(p)) continue;
        depthOf.set(p, d === 0 ? 0 : d + 1);
        next.push(p);
      }
    }
    frontier = next;
  }
  // Then every tree and blob under those commits that the client lacks, the newest commit's first
  // (git deltifies older objects against newer ones: their bases then come first in the pack).
  // Trees whose children are at hand are walked without an await (`markTreesById`); another is read, then sent.
  const todo = trees.reverse();
  for (let t = markTreesById(repo, todo, sent, known, out); t !== null; t = markTreesById(repo, todo, sent, known, out)) {
    sendTree(t, await repo.treeChildren(t), todo, sent, known, out);
  }
  return { objects: out, shallow, unshallow };
}

/** Sends a tree and the blobs under it the client lacks; its subtrees go on `todo`. */
function sendTree(t: string, children: TreeChildren, todo: string[], sent: Set<string>, known: Set<string>, out: { oid: string; type: ObjectType }[]): void {
  sent.add(t);
  out.push({ oid: t, type: 'tree' });
  const { trees, blobs } = children;
  for (let k = 0; k < trees.length; k++) todo.push(trees[k]!);
  for (let k = 0; k < blobs.length; k++) {
    const b = blobs[k]!;
    if (sent.has(b) || known.has(b)) continue;
    sent.add(b);
    out.push({ oid: b, type: 'blob' });
  }
}

/**
 * Sends the trees on `todo` (depth first) whose children are at hand (`treeChildrenNow`): null
 * once all are sent, else the next tree to read (taken off `todo`). Not async, as `markTrees`.
 */
function markTreesById(repo: RepositoryObjects, todo: string[], sent: Set<string>, known: Set<string>, out: { oid: string; type: ObjectType }[]): string | null {
  while (todo.length) {
    const t = todo.pop()!;
    if (sent.has(t) || known.has(t)) continue;
    const children = repo.treeChildrenNow(t);
    if (!children) return t;
    sendTree(t, children, todo, sent, known, out);
  }
  return null;
}

/** Not all in one pack: the walk over ids goes instead. */
const ELSEWHERE = null;

/** The children of the tree at position `t` of `pack`, as positions there (read once, then kept with the pack); null when one is elsewhere. */
async function childrenIn(repo: RepositoryObjects, pack: StoredPack, t: number): Promise<ChildPositions | null> {
  const known = pack.childrenAt(t);
  if (known !== undefined) return known;
  const { trees, blobs } = await repo.treeChildren(pack.oids[t]!);
  const at = (oids: readonly string[]) => {
    const out = new Int32Array(oids.length);
    for (let k = 0; k < oids.length; k++) {
      const i = pack.index.get(oids[k]!);
      if (i === undefined) return null;
      out[k] = i;
    }
    return out;
  };
  const tp = at(trees);
  const bp = tp && at(blobs);
  const children = tp && bp ? { trees: tp, blobs: bp } : null;
  pack.setChildren(t, children);
  return children;
}

const DONE = -1;
const OUTSIDE = -2;

/**
 * Sends the trees on `todo` and what is under them, depth first, as far as the pack knows their
 * children: DONE, OUTSIDE when a child is in no position of the pack, or the position of a tree
 * whose children are not known yet (left on `todo`). Not async, so that V8 optimises the loop
 * while it runs (it does not replace the code of an async function mid-run).
 */
function markTrees(pack: StoredPack, todo: number[], sent: Uint8Array, out: { oid: string; type: ObjectType }[]): number {
  const oids = pack.oids;
  while (todo.length) {
    const t = todo.pop()!;
    if (sent[t]) continue;
    const children = pack.childrenAt(t);
    if (children === undefined) {
      todo.push(t);
      return t;
    }
    if (children === null) return OUTSIDE;
    sent[t] = 1;
    out.push({ oid: oids[t]!, type: 'tree' });
    const { trees, blobs } = children;
    for (let k = 0; k < trees.length; k++) todo.push(trees[k]!);
    for (let k = 0; k < blobs.length; k++) {
      const b = blobs[k]!;
      if (sent[b]) continue;
      sent[b] = 1;
      out.push({ oid: oids[b]!, type: 'blob' });
    }
  }
  return DONE;
}

/**
 * What a clone of `wants` gets, when every object reachable from them is in the one kept pack
 * that holds the first: the same objects in the same order as the walk over ids, but marked by
 * their positions in the pack (a typed array, no id hashed), trees' children as positions the
 * push recorded, types from the pack's entries. Null when some object is elsewhere.
 */
async function selectInPack(repo: RepositoryObjects, wants: readonly string[]): Promise<Selection | null> {
  if (wants.length === 0) return ELSEWHERE;
  const pack = repo.packHolding(wants[0]!);
  // A pack that names an object twice is walked by ids.
  if (!pack || pack.index.size !== pack.oids.length) return ELSEWHERE;
  const sent = new Uint8Array(pack.oids.length);
  const out: { oid: string; type: ObjectType }[] = [];
  const commits: number[] = [];
  const trees: number[] = [];
  for (let w of wants) {
    // Tags peeled, each tag object sent (commits first come after them, as the walk over ids orders them).
    for (let k = 0; ; k++) {
      const i = pack.index.get(w);
      if (i === undefined || k >= 20) return ELSEWHERE;
      const type = pack.typeAt(i);
      if (type === 'tag') {
        if (!sent[i]) (sent[i] = 1), out.push({ oid: w, type });
        w = (await repo.readTag(w)).object;
        continue;
      }
      if (type === 'commit') commits.push(i);
      else if (type === 'tree') trees.push(i);
      else if (!sent[i]) (sent[i] = 1), out.push({ oid: w, type });
      break;
    }
  }
  // Commits breadth first from the wants.
  const queued = new Uint8Array(pack.oids.length);
  let frontier: number[] = [];
  for (const c of commits) if (!queued[c]) (queued[c] = 1), frontier.push(c);
  while (frontier.length) {
    const next: number[] = [];
    for (const c of frontier) {
      const oid = pack.oids[c]!;
      const commit = repo.parsedCommit(oid) ?? (await repo.readCommit(oid));
      if (!sent[c]) {
        sent[c] = 1;
        out.push({ oid, type: 'commit' });
        const t = pack.index.get(commit.tree);
        if (t === undefined) return ELSEWHERE;
        trees.push(t);
      }
      for (const p of commit.parents) {
        const i = pack.index.get(p);
        if (i === undefined) return ELSEWHERE;
        if (!queued[i]) (queued[i] = 1), next.push(i);
      }
    }
    frontier = next;
  }
  // Trees and blobs, the newest commit's first: as far as the children are known, then those of
  // the next tree read (a pack a data directory kept has none recorded yet), and on.
  const todo = trees.reverse();
  for (;;) {
    const stop = markTrees(pack, todo, sent, out);
    if (stop === DONE) break;
    if (stop === OUTSIDE || !(await childrenIn(repo, pack, stop))) return ELSEWHERE;
  }
  return { objects: out, shallow: [], unshallow: [], ...(out.length === pack.oids.length ? { pack } : {}) };
}
