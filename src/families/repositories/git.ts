// A project's repository as git's smart HTTP serves it (the git surface speaks the protocol and
// asks the registry): the path that names it, who may fetch and push, the refs it advertises,
// how a push applies, and its Git LFS objects.
import { gitForbidden, MESSAGES } from '../../http/git-access.js';
import { projectFullPath } from '../../policy/paths.js';
import type { Project } from '../../store/state.js';
import type { Advertised, AdvertisedRef } from '../../git/transfer.js';
import type { GitPart, ServedRepository } from '../define.js';
import type { State } from '../world.js';
import { anonymousCanDownload, checkAccess, gitTarget, lfsAccess } from './git-access.js';
import { applyProjectPush, REPOSITORY_REF_RULES } from './git-push.js';
import { branchEntries, branchTip, isEmptyRepository, lfsObject, otherRefEntries, setLfsObject, tagEntries } from './refs.js';
import { defaultBranchName, draftRefs, isRepositoryReadOnly, refsOf } from './rules.js';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The refs a project's repository advertises (git's ref advertisement and protocol v2's
 * ls-refs): HEAD (when its branch exists), then branches, tags, each merge request's head
 * (`refs/merge-requests/<iid>/head`, which `glab mr checkout` fetches) and the other refs
 * pushes wrote (refs/notes/*...) in name order, annotated tags with the commit they peel to.
 */
/** Refs other families keep of a project's repository outside its refs (merge request heads). */
const MORE_REFS: ((state: State, projectId: number) => Iterable<AdvertisedRef>)[] = [];

/** Adds refs a family keeps to every advertisement of a project's repository (its family registers them when it loads). */
export function registerAdvertisedRefs(refs: (state: State, projectId: number) => Iterable<AdvertisedRef>): void {
  MORE_REFS.push(refs);
}

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
  for (const more of MORE_REFS) named.push(...more(state, project.id));
  named.sort((a, b) => byName(a.name, b.name));
  out.push(...named);
  return { refs: out, head, empty: isEmptyRepository(refs) };
}

/** A project's repository is read-only while a storage move of it runs. */
const readOnly = (state: State) => (project: Project) => isRepositoryReadOnly(state, 'project', project.id);

/** The repository of the project a path names (not its wiki's): its code and its LFS objects. */
function projectRepository(state: State, path: string): ServedRepository | undefined {
  const target = gitTarget(state, path);
  const project = target.wiki ? undefined : target.project;
  if (!project) return undefined;
  return {
    key: project.id,
    tokenProject: project.id,
    anonymousDownload: (s, now) => anonymousCanDownload(s, project, now),
    check: (s, caller, command, now) => void checkAccess(s, caller, target, command, now, readOnly(s)),
    refs: (s) => advertisedRefs(s, project),
    push: (run, commands, pack, atomic) => applyProjectPush({ ...run, project }, commands, pack, atomic),
    lfs: {
      project: project.id,
      path: projectFullPath(state, project),
      access: (s, caller, operation, now) => lfsAccess(s, caller, project, operation, now),
      object: (s, oid) => lfsObject(refsOf(s, project.id), oid),
      assertWritable: (s) => {
        if (readOnly(s)(project)) throw gitForbidden(MESSAGES.readOnly);
      },
      link: (oid, blob) => (draft) => setLfsObject(draftRefs(draft, project.id), oid, blob),
    },
  };
}

/** What the repositories family serves of git: projects' repositories, and the rules of their branches and other refs. */
export const REPOSITORIES_GIT: GitPart = { repository: projectRepository, refRules: REPOSITORY_REF_RULES };
