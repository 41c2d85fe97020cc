// The refs a repository advertises (git's ref advertisement and protocol v2's ls-refs): HEAD,
// then branches and tags in name order, annotated tags with the commit they peel to.
import { branchEntries, branchTip, defaultBranchName, isEmptyRepository, refsOf, tagEntries } from '../../families/repositories/index.js';
import type { State } from '../../families/world.js';
import type { Project } from '../../store/state.js';

export interface AdvertisedRef {
  name: string;
  oid: string;
  /** The object an annotated tag peels to. */
  peeled?: string;
  /** What a symbolic ref (HEAD) points at. */
  symref?: string;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** HEAD (when its branch exists), every branch and every tag, as git lists them. */
export function advertisedRefs(state: State, project: Project): { refs: AdvertisedRef[]; head: string; empty: boolean } {
  const refs = refsOf(state, project.id);
  const head = `refs/heads/${defaultBranchName(project)}`;
  const out: AdvertisedRef[] = [];
  const branches = [...branchEntries(refs)].sort(([a], [b]) => byName(a, b));
  const headTip = branchTip(refs, defaultBranchName(project));
  if (headTip) out.push({ name: 'HEAD', oid: headTip, symref: head });
  for (const [b, oid] of branches) out.push({ name: `refs/heads/${b}`, oid });
  for (const [t, tag] of [...tagEntries(refs)].sort(([a], [b]) => byName(a, b))) {
    out.push({ name: `refs/tags/${t}`, oid: tag.target, ...(tag.target !== tag.commit ? { peeled: tag.commit } : {}) });
  }
  return { refs: out, head, empty: isEmptyRepository(refs) };
}
