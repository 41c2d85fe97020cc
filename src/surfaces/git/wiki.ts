// A project's wiki repository over git's smart HTTP (`/<project path>.wiki.git`), as GitLab serves
// it (Gitlab::GitAccessWiki): cloned by whoever may read the wiki, pushed by whoever may write it
// (a developer, where the wiki feature is on), with GitLab's messages. The wiki's objects share
// the project's storage, as the wikis family keeps them; a push moves the wiki's head and
// re-indexes its pages (the files of the head with a page format's extension), so the wiki API
// reads what was pushed at once. The wiki has one branch here (the family keeps one head): a push
// to any other ref is declined.
import type { Caller } from '../../http/auth.js';
import type { State } from '../../families/world.js';
import type { Project } from '../../store/state.js';
import { canReadProject } from '../../policy/access.js';
import { canCreateProjectWiki, canReadProjectWiki, isWikiCommit, recordWikiPush, WIKI_DEFAULT_BRANCH, WIKI_EXTENSIONS, wikiRepo, type WikiFormat } from '../../families/wikis/index.js';
import { abilitiesOf, gitForbidden, gitNotFound, MESSAGES, type GitTarget } from './access.js';
import type { Advertised } from './refs.js';
import { declineAll, firstDefaultBranch, isRefName, PushObjects, readPushed, writePushed, ZERO, type Applier, type Command, type PushContext } from './receive-pack.js';

// Gitlab::GitAccessWiki::ERROR_MESSAGES.
export const WIKI_MESSAGES = {
  download: 'You are not allowed to download files from this wiki.',
  writeToWiki: "You are not allowed to write to this project's wiki.",
} as const;

const owner = (project: Project) => ({ kind: 'project' as const, id: project.id });

/** The wiki's refs: its branch and HEAD, once it has a commit; HEAD names the default branch before. */
export function wikiRefs(state: State, project: Project): Advertised {
  const wiki = wikiRepo(state, owner(project));
  const head = `refs/heads/${wiki?.branch ?? WIKI_DEFAULT_BRANCH}`;
  if (!wiki) return { refs: [], head, empty: true, tipsOnly: true };
  return { refs: [{ name: 'HEAD', oid: wiki.head, symref: head }, { name: head, oid: wiki.head }], head, empty: false, tipsOnly: true };
}

/** Whether anyone may clone the wiki without credentials (GitAccessWiki: Guest's download_wiki_code). */
export const anonymousCanDownloadWiki = (state: State, project: Project, now: number) => canReadProjectWiki(state, null, project, now);

/** Gitlab::GitAccessWiki#check for one command, as `checkAccess` does it for a project's repository. */
export function checkWikiAccess(state: State, caller: Caller, target: GitTarget, command: string | null, now: number, readOnly: (project: Project) => boolean): Project {
  const abilities = abilitiesOf(caller);
  if (command === 'git-upload-pack' && !abilities.has('download_code') && !abilities.has('build_download_code')) throw gitForbidden(MESSAGES.authDownload);
  if (command === 'git-receive-pack' && !abilities.has('push_code')) throw gitForbidden(MESSAGES.authUpload);
  if (command !== 'git-upload-pack' && command !== 'git-receive-pack') throw gitForbidden(MESSAGES.commandNotAllowed);
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

const FORMAT_OF_EXTENSION = new Map(Object.entries(WIKI_EXTENSIONS).map(([format, ext]) => [ext, format as WikiFormat]));

/** The pages of a tree: each file whose extension is a page format's, by path, as the wikis family names them. */
async function pagesOf(c: PushContext, tree: string, dir = ''): Promise<{ path: string; slug: string; format: WikiFormat }[]> {
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
async function newCommits(c: PushContext, head: string): Promise<[string, number][]> {
  const out: [string, number][] = [];
  const seen = new Set<string>();
  const stack = [head];
  while (stack.length) {
    const sha = stack.pop()!;
    if (seen.has(sha) || isWikiCommit(c.state, owner(c.project), sha)) continue;
    seen.add(sha);
    const commit = await c.repo.readCommit(sha);
    out.push([sha, commit.committer.timestamp * 1000]);
    stack.push(...commit.parents);
  }
  return out;
}

/** A push to the wiki: its one branch moves (a first push chooses it, as for a project), in one change with the pages. */
export const applyWikiPush: Applier = async (c, commands, packBytes, atomic) => {
  const pushed = await readPushed(c, commands, packBytes);
  if (!(pushed instanceof Map)) return pushed;
  const objects = new PushObjects(c.repo, pushed);
  const wiki = wikiRepo(c.state, owner(c.project));
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
  await writePushed(c, pushed);
  const pages = await pagesOf(c, (await c.repo.readCommit(head)).tree);
  const commits = await newCommits(c, head);
  c.update((draft) => recordWikiPush(draft as State, c.project.id, { head, branch, pages, commits }));
  return { unpack: 'unpack ok', results, messages };
};
