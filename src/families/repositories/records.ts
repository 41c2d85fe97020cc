// The refs of a project's repository, kept in the world; the objects they name live in the
// append-only object store (src/git/objects.ts).
import { emptyTable, type Table } from '../../store/table.js';

/** A tag: `target` is the tag object of an annotated tag, else the commit itself. */
export interface TagRef {
  target: string;
  /** The commit the tag points at, peeled. */
  commit: string;
  /** The annotation of an annotated tag; null for a lightweight tag. */
  message: string | null;
  /** The X.509 signature record of a signed tag (seeded by fixtures). */
  signature?: X509Signature;
}

/** What GitLab stores of a tag's X.509 signature (X509CommitSignature and its certificate). */
export interface X509Signature {
  verificationStatus: string;
  certificate: {
    id: number;
    subject: string;
    subjectKeyIdentifier: string;
    email: string;
    serialNumber: number;
    certificateStatus: string;
    issuer: { id: number; subject: string; subjectKeyIdentifier: string; crlUrl: string };
  };
}

/** Who may create a tag matching a protected-tag pattern (an access level; 0 is no one). */
export interface ProtectedTag {
  createAccessLevel: number;
  /** The id of its create access level row (the API names it). */
  accessId?: number;
}

/** Who may push to and merge into a protected branch (access levels; 0 is no one). */
export interface ProtectedBranch {
  pushAccessLevel: number;
  mergeAccessLevel: number;
  /** Its id in the protected branches API, and the ids of its push and merge access level rows. */
  id?: number;
  accessIds?: [push: number, merge: number];
  allowForcePush?: boolean;
  codeOwnerApprovalRequired?: boolean;
}

/**
 * The refs of a project's repository. The objects they name live in the git object store
 * (append-only), so a snapshot of the world includes every repository at no cost.
 * HEAD is `Project.defaultBranch`.
 */
export interface Repository {
  /**
   * Branch name -> commit sha, in chunks: a write copies one chunk, never every branch. Read
   * and write it through the accessors of ./refs.ts (`branchTip`, `setBranch`, ...), which keep
   * `branchDirs` in step.
   */
  branches: Table<string>;
  /** Every directory of a branch name (`a` and `a/b` of `a/b/c`) -> how many branches are under it. */
  branchDirs: Table<number>;
  tags: Table<TagRef>;
  /** Branch name or wildcard pattern (`release/*`) -> its protection. */
  protectedBranches: Table<ProtectedBranch>;
  /** Tag name or wildcard pattern (`v*`) -> who may create it. */
  protectedTags: Table<ProtectedTag>;
  /** LFS objects the project owns: sha256 oid -> the blob holding the content. */
  lfs: Table<string>;
  /**
   * Refs outside branches and tags that pushes wrote (`refs/notes/commits`, a mirror's other
   * refs): full name -> object id. Absent until the first; read and write it through ./refs.ts.
   */
  otherRefs?: Table<string>;
  /**
   * The storage holding the repository's objects (an ObjectDatabase id, never handed out twice);
   * absent until the repository's first object is written. A project id that a restore hands
   * out again starts without one, so it never reads what the earlier project wrote.
   */
  storage?: number;
  /**
   * The last write to `storage` (ObjectStorage.count) that this world made or saw: the world sees
   * only objects of writes up to it, so a restored or forked world never reads by sha what
   * another history wrote to the storage later.
   */
  seen?: number;
}

/**
 * The refs of a repository with none yet. Each collection is a table keyed by names users
 * choose (`constructor` or `__proto__` are keys like any other).
 */
export function emptyRepository(): Repository {
  return { branches: emptyTable(), branchDirs: emptyTable(), tags: emptyTable(), protectedBranches: emptyTable(), protectedTags: emptyTable(), lfs: emptyTable() };
}

/** A storage shard (a Gitaly storage): its name, and its weight when GitLab picks one for a repository. */
export interface StorageShard {
  name: string;
  weight: number;
}

/** Two shards, as an instance with a second Gitaly storage has: new repositories land on `default`. */
export function defaultShards(): StorageShard[] {
  return [{ name: 'default', weight: 100 }, { name: 'storage2', weight: 100 }];
}
