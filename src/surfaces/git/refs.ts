// The refs a repository advertises (git's ref advertisement and protocol v2's ls-refs): HEAD,
// then branches, tags, each merge request's head (`refs/merge-requests/<iid>/head`, which
// `glab mr checkout` fetches) and the other refs pushes wrote (refs/notes/*...) in name order,
// annotated tags with the commit they peel to.
import { branchEntries, branchTip, defaultBranchName, isEmptyRepository, otherRefEntries, refsOf, tagEntries } from '../../families/repositories/index.js';
import type { State } from '../../families/world.js';
import { tget, tvalues } from '../../store/table.js';
import type { Project } from '../../store/state.js';
import type { Advertised, AdvertisedRef } from '../../git/transfer.js';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Where the refs a repository advertises come from: a project's repository, or its wiki's. */
export type RefSource = (state: State, project: Project) => Advertised;

/** HEAD (when its branch exists), every branch and every tag, as git lists them. */
export function advertisedRefs(state: State, project: Project): Advertised {
  const refs = refsOf(state, project.id);
  const head = `refs/heads/${defaultBranchName(project)}`;
  const out: AdvertisedRef[] = [];
  const headTip = branchTip(refs, defaultBranchName(project));
  if (headTip) out.push({ name: 'HEAD', oid: headTip, symref: head });
  const named: AdvertisedRef[] = [];
  for (const [b, oid] of branchEntries(refs)) named.push({ name: `refs/heads/${b}`, oid });
  for (const [t, tag] of tagEntries(refs)) named.push({ name: `refs/tags/${t}`, oid: tag.target, ...(tag.target !== tag.commit ? { peeled: tag.commit } : {}) });
  for (const [name, oid] of otherRefEntries(refs)) named.push({ name, oid });
  const mergeRequests = tget(state.mergeRequests, project.id);
  if (mergeRequests) for (const mr of tvalues(mergeRequests)) named.push({ name: `refs/merge-requests/${mr.iid}/head`, oid: mr.sha });
  named.sort((a, b) => byName(a.name, b.name));
  out.push(...named);
  return { refs: out, head, empty: isEmptyRepository(refs) };
}
