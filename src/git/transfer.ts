// What a repository served over git's transfer protocols advertises and takes, below the wire
// format (src/surfaces/git/ speaks pkt-lines and smart HTTP): the refs it lists, a push's
// commands and objects, the checks git itself makes on them, and the outcome git reports. The
// families that own repositories apply pushes with these.
import { OidTable, parseCommit, parseTag, treeChildPositions, treeChildren, type ObjectType } from './format.js';
import type { RepositoryObjects } from './objects.js';
import { PackError, readPack, type PackedObject, type PackObject } from './pack.js';
import { completePack, StoredPack } from './packfile.js';

/** The id of no object: the old side of a created ref, the new side of a deleted one. */
export const ZERO = '0000000000000000000000000000000000000000';

export interface AdvertisedRef {
  name: string;
  oid: string;
  /** The object an annotated tag peels to. */
  peeled?: string;
  /** What a symbolic ref (HEAD) points at. */
  symref?: string;
}

/** A repository's refs as git lists them, and what HEAD names. */
export interface Advertised {
  refs: AdvertisedRef[];
  head: string;
  empty: boolean;
  /**
   * Whether a fetch may want only what the refs point at (and their history): a wiki shares its
   * project's storage, and must not hand out the project's objects by id.
   */
  tipsOnly?: boolean;
}

/** One command of a push: move `ref` from `old` to `new`. */
export interface Command {
  old: string;
  new: string;
  ref: string;
}

/** Whether a command creates its ref (from nothing) and whether it deletes it (to nothing). */
export const movement = (cmd: Command): { creation: boolean; deletion: boolean } => ({ creation: cmd.old === ZERO, deletion: cmd.new === ZERO });

/** An object of a pushed pack: its content, and its entry as the pack held it. */
export interface Pushed {
  type: ObjectType;
  content: Uint8Array;
  packed: PackedObject;
}

/** What a push may read: its own objects first, then the repository's. */
export class PushObjects {
  constructor(
    readonly repo: RepositoryObjects,
    readonly pushed: Map<string, { type: ObjectType; content: Uint8Array }>,
  ) {}

  async type(oid: string): Promise<ObjectType | null> {
    return this.pushed.get(oid)?.type ?? (await this.repo.type(oid));
  }

  async parents(oid: string): Promise<string[]> {
    const o = this.pushed.get(oid);
    try {
      if (o) return o.type === 'commit' ? parseCommit(o.content).parents : [];
      return this.repo.has(oid) && (await this.repo.type(oid)) === 'commit' ? (await this.repo.readCommit(oid)).parents : [];
    } catch {
      return []; // a commit our parser cannot read: its history ends here for the checks
    }
  }

  /** Whether `ancestor` is `oid` or one of its ancestors. */
  async isAncestor(ancestor: string, oid: string): Promise<boolean> {
    const seen = new Set<string>();
    const stack = [oid];
    while (stack.length) {
      const c = stack.pop()!;
      if (c === ancestor) return true;
      if (seen.has(c)) continue;
      seen.add(c);
      stack.push(...(await this.parents(c)));
    }
    return false;
  }

  /** The commit a tag (or chain of tags) points at, and the outer tag's message. */
  async peel(oid: string): Promise<{ commit: string | null; message: string | null }> {
    let message: string | null = null;
    for (let i = 0; i < 20; i++) {
      const type = await this.type(oid);
      if (type === 'commit') return { commit: oid, message };
      if (type !== 'tag') return { commit: null, message };
      const o = this.pushed.get(oid);
      let tag: { object: string; message: string };
      try {
        tag = o ? parseTag(o.content) : await this.repo.readTag(oid);
      } catch {
        return { commit: null, message };
      }
      if (i === 0) message = tag.message.trimEnd();
      oid = tag.object;
    }
    return { commit: null, message };
  }
}

export interface Outcome {
  /** `unpack ok`, or why the pack could not be read. */
  unpack: string;
  /** Ref -> null (ok) or why it was refused. */
  results: Map<string, string | null>;
  /** Lines for side-band 2. */
  messages: string[];
}

export function declineAll(commands: Command[], reason: string, messages: string[], unpack = 'unpack ok'): Outcome {
  return { unpack, results: new Map(commands.map((cmd) => [cmd.ref, reason])), messages };
}

/** A push's objects by id, and its pack as the repository keeps it (null when it carries no object). */
export class PushedObjects extends Map<string, Pushed> {
  pack: StoredPack | null = null;
}

/**
 * The objects of a push's pack (none when it only deletes), or the outcome of a pack that cannot
 * be read. The pack is kept as it came, a thin one completed with the bases it lacked.
 */
export async function readPushed(repo: RepositoryObjects, commands: Command[], packBytes: Uint8Array): Promise<Map<string, Pushed> | Outcome> {
  const pushed = new PushedObjects();
  if (commands.some((cmd) => cmd.new !== ZERO)) {
    try {
      const externals = new Map<string, PackObject>();
      const objects = await readPack(
        packBytes,
        async (oid) => {
          if (!repo.has(oid)) return null;
          const { type, object } = await repo.readObject(oid);
          return { type, content: object };
        },
        externals,
      );
      for (const o of objects) pushed.set(o.oid, { type: o.type, content: o.content, packed: o.packed });
      if (objects.length > 0) {
        const { bytes, entries } = await completePack(packBytes, objects, externals);
        pushed.pack = await StoredPack.build(bytes, entries);
      }
    } catch (e) {
      if (!(e instanceof PackError)) throw e;
      return declineAll(commands, 'unpacker error', [], `unpack ${e.message}`);
    }
  }
  return pushed;
}

/**
 * Writes a push's objects: its pack kept whole (`readPushed`), or each object loose. Each
 * object's pack entry is kept as git sent it (the next clone sends git's compression and deltas
 * as they are), and each tree's children read while its bytes are at hand, one string for each
 * object's id: a clone's walk reads no tree again.
 */
export async function writePushed(repo: RepositoryObjects, pushed: Map<string, Pushed>): Promise<void> {
  if (pushed instanceof PushedObjects && pushed.pack) {
    // The pack's ids in its order: a tree's children found there are known by their positions
    // too, which a clone's walk over the pack marks instead of hashing ids.
    const pack = pushed.pack;
    const ids = new OidTable(pack.oids);
    for (const [oid, o] of pushed) {
      if (o.type !== 'tree') continue;
      const at = pack.index.get(oid);
      const positions = at === undefined ? null : treeChildPositions(o.content, ids);
      if (at !== undefined) pack.setChildren(at, positions);
      // A walk over ids reads those as ids when it needs them (`treeChildren`).
      if (!positions) repo.rememberChildren(oid, treeChildren(o.content, ids));
    }
    const objects: { oid: string; type: ObjectType; content: Uint8Array }[] = [];
    for (const [oid, o] of pushed) if (o.type === 'commit') objects.push({ oid, type: o.type, content: o.content });
    repo.writePack(pushed.pack, objects);
    return;
  }
  const ids = new Map<string, string>();
  for (const oid of pushed.keys()) ids.set(oid, oid);
  for (const [oid, o] of pushed) {
    await repo.writeObject(o.type, o.content);
    repo.rememberPacked(oid, o.packed);
    if (o.type === 'tree') repo.rememberChildren(oid, treeChildren(o.content, (id) => ids.get(id) ?? id));
  }
}

/** Gitaly's FindDefaultBranchName for a repository whose HEAD names no branch yet. */
export function firstDefaultBranch(branches: string[], head: string): string | null {
  if (branches.includes(head)) return head;
  if (branches.length === 1) return branches[0]!;
  for (const b of ['main', 'master']) if (branches.includes(b)) return b;
  return branches.sort()[0] ?? null;
}

/**
 * The refs GitLab keeps for itself, which Gitaly hides from receive-pack (`receive.hideRefs`, its
 * InternalRefPrefixes): a push to one is refused by git with "deny updating a hidden ref".
 */
export const HIDDEN_REF_PREFIXES = ['refs/environments/', 'refs/keep-around/', 'refs/merge-requests/', 'refs/pipelines/', 'refs/remotes/', 'refs/tmp/'] as const;

export const isHiddenRef = (ref: string): boolean => HIDDEN_REF_PREFIXES.some((p) => ref.startsWith(p));

/** git's check_refname_format for a ref a push names (receive-pack: "funny refname" otherwise). */
export function isRefName(ref: string): boolean {
  if (!ref.startsWith('refs/') || ref.endsWith('/') || ref.endsWith('.') || ref.includes('..') || ref.includes('@{')) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(ref)) return false;
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}
