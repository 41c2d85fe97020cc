// The repository at one commit as the compiler reads it (CompileInput's readFile and paths):
// every path, and the text of the YAML files, read ahead because only they can be included.
import type { RepositoryObjects } from '../../../git/objects.js';
import { listFiles } from '../../../git/tree.js';

export interface RepositorySnapshot {
  readFile(path: string): string | undefined;
  paths(): readonly string[];
}

const EMPTY: RepositorySnapshot = { readFile: () => undefined, paths: () => [] };

/**
 * The files of `sha` (null: an empty repository). `alsoRead` names other files to read ahead,
 * such as a CI file configured without a YAML extension.
 */
export async function repositorySnapshot(repo: RepositoryObjects, sha: string | null, alsoRead: readonly string[] = []): Promise<RepositorySnapshot> {
  if (!sha) return EMPTY;
  // A commit's files never change: read once per commit (and per extra file asked for).
  const { files, paths } = await repo.memo(
    `ci-config-snapshot:${sha}:${alsoRead.join('\0')}`,
    async () => {
      const commit = await repo.readCommit(sha);
      const entries = await listFiles(repo, commit.tree);
      const files = new Map<string, string>();
      const decoder = new TextDecoder();
      for (const [path, entry] of entries) {
        if (/\.ya?ml$/.test(path) || alsoRead.includes(path)) files.set(path, decoder.decode(await repo.readBlob(entry.oid)));
      }
      return { files, paths: [...entries.keys()] as readonly string[] };
    },
    (v) => v.paths.length + v.files.size,
  );
  return { readFile: (path) => files.get(path), paths: () => paths };
}
