// A project's wiki repository over git's smart HTTP (`/<project path>.wiki.git`), as GitLab serves
// it (Gitlab::GitAccessWiki): cloned by whoever may read the wiki, pushed by whoever may write it
// (a developer, where the wiki feature is on), with GitLab's messages; and a group's wiki
// (`/<group path>.wiki.git`, the higher tier's, EE::Gitlab::GitAccessWiki) the same way over the
// group. A project wiki's objects share the project's storage, a group wiki's have their own, as
// the wikis family keeps them; a push moves the wiki's head and re-indexes its pages (the files of
// the head with a page format's extension), so the wiki API reads what was pushed at once. The
// wiki has one branch here (the family keeps one head): a push to any other ref is declined. The
// git surface finds a wiki through the registry (`WIKIS_GIT`).
import type { Caller } from '../../http/auth.js';
import type { State } from '../world.js';
import type { Namespace, Project } from '../../store/state.js';
import { canReadGroup, canReadProject } from '../../policy/access.js';
import { namespaceByIdOrPath } from '../../policy/paths.js';
import { pdel, pset, tentries, tget, tset } from '../../store/table.js';
import { abilitiesOf, checkCommand, gitForbidden, gitNotFound, MESSAGES } from '../../http/git-access.js';
import { declineAll, firstDefaultBranch, isRefName, PushObjects, readPushed, writePushed, ZERO, type Advertised } from '../../git/transfer.js';
import type { GitPart, PushRun, ServedRepository } from '../define.js';
import { gitTarget, isRepositoryReadOnly, type GitTarget } from '../repositories/index.js';
import { EXTENSIONS as WIKI_EXTENSIONS, type WikiFormat } from './records.js';
import {
  canCreateGroupWiki, canCreateProjectWiki, canReadGroupWiki, canReadProjectWiki, commitsTable, groupOwner, isWikiCommit, objectsKey, pageKey, pagesTable, projectOwner,
  reposTable, wikiRepo, type WikiOwner,
} from './rules.js';
import { ids, WIKI_DEFAULT_BRANCH } from './service.js';

// Gitlab::GitAccessWiki::ERROR_MESSAGES, and EE::Gitlab::GitAccessWiki's for a group's wiki.
export const WIKI_MESSAGES = {
  download: 'You are not allowed to download files from this wiki.',
  writeToWiki: "You are not allowed to write to this project's wiki.",
  writeToGroupWiki: "You are not allowed to write to this group's wiki.",
  groupNotFound: 'The group you were looking for could not be found.',
} as const;

/** A project's wiki's refs (see `wikiRefsOf`). */
const wikiRefs = (state: State, project: Project): Advertised => wikiRefsOf(state, projectOwner(project));

/** The wiki's refs: its branch and HEAD, once it has a commit; HEAD names the default branch before. */
function wikiRefsOf(state: State, o: WikiOwner): Advertised {
  const wiki = wikiRepo(state, o);
  const head = `refs/heads/${wiki?.branch ?? WIKI_DEFAULT_BRANCH}`;
  if (!wiki) return { refs: [], head, empty: true, tipsOnly: true };
  return { refs: [{ name: 'HEAD', oid: wiki.head, symref: head }, { name: head, oid: wiki.head }], head, empty: false, tipsOnly: true };
}

/** Whether anyone may clone the wiki without credentials (GitAccessWiki: Guest's download_wiki_code). */
const anonymousCanDownloadWiki = (state: State, project: Project, now: number) => canReadProjectWiki(state, null, project, now);

/** Gitlab::GitAccessWiki#check for one command, as `checkAccess` does it for a project's repository. */
function checkWikiAccess(state: State, caller: Caller, target: GitTarget, command: string | null, now: number, readOnly: (project: Project) => boolean): Project {
  const abilities = checkCommand(abilitiesOf(caller), command);
  const project = target.project;
  const user = caller.user;
  if (!project || !canReadProject(state, user, project, now)) throw gitNotFound();
  if (command === 'git-upload-pack') {
    const asUser = (abilities.has('download_code') || abilities.has('build_download_code')) && canReadProjectWiki(state, user, project, now);
    if (!asUser && !anonymousCanDownloadWiki(state, project, now)) throw gitForbidden(WIKI_MESSAGES.download);
    return project;
  }
  if (readOnly(project)) throw gitForbidden(MESSAGES.readOnly);
  if (!user || caller.method === 'job' || !canCreateProjectWiki(state, user, project, now)) throw gitForbidden(WIKI_MESSAGES.writeToWiki);
  return project;
}

/** Whether anyone may clone a group's wiki without credentials: who may read the group reads its wiki. */
const anonymousCanDownloadGroupWiki = (state: State, group: Namespace, now: number) => canReadGroup(state, null, group, now) && canReadGroupWiki();

/**
 * EE::Gitlab::GitAccessWiki#check for a group's wiki: the group the caller may read (else "The
 * group you were looking for could not be found."), then the wiki's download or write rules.
 */
function checkGroupWikiAccess(state: State, caller: Caller, group: Namespace, command: string | null, now: number, readOnly: boolean): Namespace {
  checkCommand(abilitiesOf(caller), command);
  const user = caller.user;
  if (!canReadGroup(state, user, group, now)) throw gitNotFound(WIKI_MESSAGES.groupNotFound);
  if (command === 'git-upload-pack') {
    if (!canReadGroupWiki()) throw gitForbidden(WIKI_MESSAGES.download);
    return group;
  }
  if (readOnly) throw gitForbidden(MESSAGES.readOnly);
  if (!user || caller.method === 'job' || !canCreateGroupWiki(state, user, group, now)) throw gitForbidden(WIKI_MESSAGES.writeToGroupWiki);
  return group;
}

const FORMAT_OF_EXTENSION = new Map(Object.entries(WIKI_EXTENSIONS).map(([format, ext]) => [ext, format as WikiFormat]));

/** The pages of a tree: each file whose extension is a page format's, by path, as the wikis family names them. */
async function pagesOf(c: PushRun, tree: string, dir = ''): Promise<{ path: string; slug: string; format: WikiFormat }[]> {
  const out: { path: string; slug: string; format: WikiFormat }[] = [];
  for (const e of (await c.repo.readTree(tree)).values()) {
    const path = dir ? `${dir}/${e.name}` : e.name;
    if (e.type === 'tree') out.push(...(await pagesOf(c, e.oid, path)));
    else if (e.type === 'blob') {
      const dot = e.name.lastIndexOf('.');
      const format = dot > 0 ? FORMAT_OF_EXTENSION.get(e.name.slice(dot + 1)) : undefined;
      if (format) out.push({ path, slug: path.slice(0, path.length - e.name.length + dot), format });
    }
  }
  return out;
}

/** The commits a push adds to the wiki's history (those not yet versions of it), with their committer's time. */
async function newCommits(c: PushRun, o: WikiOwner, head: string): Promise<[string, number][]> {
  const out: [string, number][] = [];
  const seen = new Set<string>();
  const stack = [head];
  while (stack.length) {
    const sha = stack.pop()!;
    if (seen.has(sha) || isWikiCommit(c.state, o, sha)) continue;
    seen.add(sha);
    const commit = await c.repo.readCommit(sha);
    out.push([sha, commit.committer.timestamp * 1000]);
    stack.push(...commit.parents);
  }
  return out;
}

/** A push to a wiki: its one branch moves (a first push chooses it, as for a project), in one change with the pages. */
const wikiPushApplier = (o: WikiOwner): ServedRepository['push'] => async (c, commands, packBytes, atomic) => {
  const pushed = await readPushed(c.repo, commands, packBytes);
  if (!(pushed instanceof Map)) return pushed;
  const objects = new PushObjects(c.repo, pushed);
  const wiki = wikiRepo(c.state, o);
  const branches = commands.filter((cmd) => cmd.ref.startsWith('refs/heads/') && cmd.new !== ZERO).map((cmd) => cmd.ref.slice(11));
  const branch = wiki?.branch ?? firstDefaultBranch(branches, WIKI_DEFAULT_BRANCH) ?? WIKI_DEFAULT_BRANCH;
  const results = new Map<string, string | null>();
  const messages: string[] = [];
  for (const cmd of commands) {
    if (!isRefName(cmd.ref)) results.set(cmd.ref, 'funny refname');
    else if (cmd.ref !== `refs/heads/${branch}` || cmd.new === ZERO) {
      results.set(cmd.ref, 'pre-receive hook declined');
      if (messages.length === 0) messages.push(`GitLab: This wiki's repository keeps one branch, ${branch}: it is pushed to, never deleted.\n`);
    } else if (!(await objects.type(cmd.new))) results.set(cmd.ref, 'missing necessary objects');
    else if ((await objects.type(cmd.new)) !== 'commit') results.set(cmd.ref, 'bad ref');
    else if ((wiki?.head ?? ZERO) !== cmd.old) results.set(cmd.ref, 'failed to update ref');
    else results.set(cmd.ref, null);
  }
  const going = commands.filter((cmd) => results.get(cmd.ref) === null);
  if (going.length < commands.length && atomic) return declineAll(commands, 'atomic transaction failed', messages);
  if (going.length === 0) return { unpack: 'unpack ok', results, messages };
  const head = going[0]!.new;
  await writePushed(c.repo, pushed);
  const pages = await pagesOf(c, (await c.repo.readCommit(head)).tree);
  const commits = await newCommits(c, o, head);
  c.update((draft) => recordWikiPush(draft as State, o, { head, branch, pages, commits }));
  return { unpack: 'unpack ok', results, messages };
};

/**
 * A push to a project's or a group's wiki repository, on a draft: the head and the branch move,
 * the pages are the files at the new head that `pages` lists (by path, with the slug and format
 * each is a page of; one still there keeps its meta id), and the new commits become versions a
 * page may be read at.
 */
function recordWikiPush(
  draft: State,
  o: WikiOwner,
  push: { head: string; branch: string; pages: readonly { path: string; slug: string; format: WikiFormat }[]; commits: readonly [sha: string, at: number][] },
): void {
  tset(reposTable(draft, o), o.id, { head: push.head, branch: push.branch });
  for (const [sha, at] of push.commits) pset(commitsTable(draft, o), o.id, sha, at);
  const kept = new Set(push.pages.map((p) => pageKey(p.slug)));
  const current = tget(pagesTable(draft, o), o.id);
  if (current) for (const [key] of [...tentries(current)]) if (!kept.has(key)) pdel(pagesTable(draft, o), o.id, key);
  for (const p of push.pages) {
    const key = pageKey(p.slug);
    const before = current ? tget(current, key) : undefined;
    if (before && before.path === p.path && before.format === p.format) continue;
    pset(pagesTable(draft, o), o.id, key, { path: p.path, format: p.format, metaId: before?.metaId ?? ids.next(draft, 'wiki_page_meta') });
  }
}

/** A project's wiki (`<project path>.wiki`): it shares the project's storage, and is read-only while the project's repository is. */
function projectWiki(target: GitTarget, project: Project): ServedRepository {
  return {
    key: project.id,
    tokenProject: project.id,
    anonymousDownload: (s, now) => anonymousCanDownloadWiki(s, project, now),
    check: (s, caller, command, now) => void checkWikiAccess(s, caller, target, command, now, (p) => isRepositoryReadOnly(s, 'project', p.id)),
    refs: (s) => wikiRefs(s, project),
    push: wikiPushApplier(projectOwner(project)),
  };
}

/** A group's wiki (`<group path>.wiki`, the higher tier's): its objects are its own. */
function groupWiki(group: Namespace): ServedRepository {
  const o = groupOwner(group);
  return {
    key: objectsKey(o),
    anonymousDownload: (s, now) => anonymousCanDownloadGroupWiki(s, group, now),
    check: (s, caller, command, now) => void checkGroupWikiAccess(s, caller, group, command, now, isRepositoryReadOnly(s, 'group', group.id)),
    refs: (s) => wikiRefsOf(s, o),
    push: wikiPushApplier(o),
  };
}

/** The wiki a git URL's path names (Gitlab::RepoPath): a project's, else a group's. */
function wikiRepository(state: State, path: string): ServedRepository | undefined {
  const target = gitTarget(state, path);
  if (!target.wiki) return undefined;
  if (target.project) return projectWiki(target, target.project);
  // GroupWiki: EE's; below the higher tier a group has no wiki to serve.
  if (state.instance.tier === 'free') return undefined;
  const groupPath = target.fullPath.slice(0, -5);
  const group = namespaceByIdOrPath(state, groupPath);
  return group && group.kind === 'group' && !group.pendingDelete && !/^\d+$/.test(groupPath) ? groupWiki(group) : undefined;
}

/** What the wikis family serves of git: the wikis of projects and groups. */
export const WIKIS_GIT: GitPart = { repository: wikiRepository };
