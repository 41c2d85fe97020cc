// A snippet's repository over git's smart HTTP, at its `http_url_to_repo`
// (`/<project path>/snippets/<id>.git`, `/snippets/<id>.git`), as GitLab serves it
// (Gitlab::GitAccessSnippet, UserAccessSnippet, Checks::SnippetCheck and PushFileCountCheck):
// cloned by whoever may read the snippet, pushed by whoever may update it, on its one branch,
// with GitLab's messages. A push moves the snippet's branch with its record, so the API reads the
// pushed files at once. The git surface finds it through the registry (`SNIPPETS_GIT`).
import type { Caller } from '../../http/auth.js';
import type { State } from '../world.js';
import { canReadProject } from '../../policy/access.js';
import { projectByIdOrPath } from '../../policy/paths.js';
import { gitTarget, isRepositoryReadOnly } from '../repositories/index.js';
import { tget } from '../../store/table.js';
import { parseCommit, parseTree, type Tree } from '../../git/format.js';
import { abilitiesOf, checkCommand, gitForbidden, gitNotFound, MESSAGES, type Ability } from '../../http/git-access.js';
import { declineAll, firstDefaultBranch, isRefName, PushObjects, readPushed, writePushed, ZERO, type Advertised } from '../../git/transfer.js';
import type { GitPart, PushRun, ServedRepository } from '../define.js';
import type { Snippet } from './records.js';
import { snippetHead, snippetPathsAt, snippetRepoKey, SNIPPET_MAX_FILES } from './repository.js';
import { canReadSnippet, canUpdateSnippet } from './rules.js';
import { recordSnippetPush } from './service.js';

// Gitlab::GitAccessSnippet::ERROR_MESSAGES, Checks::SnippetCheck's and PushFileCountCheck's.
export const SNIPPET_MESSAGES = {
  readSnippet: 'You are not allowed to read this snippet.',
  updateSnippet: 'You are not allowed to update this snippet.',
  createDeleteBranch: 'You can not create or delete branches.',
  upperLimit: `The repository can contain at most ${SNIPPET_MAX_FILES} file(s).`,
  lowerLimit: 'The repository must contain at least 1 file.',
} as const;

/** GitAccessSnippet keeps only these of the caller's abilities (`@authentication_abilities &= [:download_code, :push_code]`). */
function snippetAbilities(caller: Caller): ReadonlySet<Ability> {
  return new Set([...abilitiesOf(caller)].filter((a) => a === 'download_code' || a === 'push_code'));
}

/** Whether anyone may clone the snippet without credentials (`Guest.can?(:read_snippet, snippet)`). */
const anonymousCanDownloadSnippet = (state: State, s: Snippet, now: number): boolean => canReadSnippet(state, null, s, now);

/**
 * Gitlab::GitAccessSnippet#check for one command: the project of a project snippet must be
 * readable (its "not found" otherwise); a clone needs `read_snippet`, a push a user who may
 * update the snippet (`update_snippet`), on a repository that takes writes.
 */
function checkSnippetAccess(state: State, caller: Caller, s: Snippet, command: string | null, now: number): Snippet {
  checkCommand(snippetAbilities(caller), command);
  const user = caller.user;
  if (s.projectId !== null) {
    const project = tget(state.projects, s.projectId);
    if (!project || project.pendingDelete || !canReadProject(state, user, project, now)) throw gitNotFound();
  }
  if (command === 'git-upload-pack') {
    if (!canReadSnippet(state, user, s, now)) throw gitForbidden(SNIPPET_MESSAGES.readSnippet);
    return s;
  }
  if (!user) throw gitForbidden(SNIPPET_MESSAGES.updateSnippet);
  if (isRepositoryReadOnly(state, 'snippet', s.id)) throw gitForbidden(MESSAGES.readOnly);
  if (!canUpdateSnippet(state, user, s, now)) throw gitForbidden(SNIPPET_MESSAGES.updateSnippet);
  return s;
}

/** The snippet's refs: its branch and HEAD, once it has a commit. */
function snippetAdvertised(state: State, s: Snippet): Advertised {
  const head = `refs/heads/${s.branch}`;
  const tip = snippetHead(state, s);
  if (!tip) return { refs: [], head, empty: true, tipsOnly: true };
  return { refs: [{ name: 'HEAD', oid: tip, symref: head }, { name: head, oid: tip }], head, empty: false, tipsOnly: true };
}

/**
 * A push to the snippet's repository: git's own checks, then GitLab's SnippetCheck (no ref but the
 * snippet's branch is created, none deleted: tags and other branches are refused; a first push
 * to an empty repository chooses the branch) and PushFileCountCheck (1 to 10 files), any refusal
 * declining the whole push; then the snippet's branch moves, in one change with its record.
 */
const snippetPushApplier = (snippet: Snippet): ServedRepository['push'] => async (c, commands, packBytes, atomic) => {
  const pushed = await readPushed(c.repo, commands, packBytes);
  if (!(pushed instanceof Map)) return pushed;
  const objects = new PushObjects(c.repo, pushed);
  const s = tget(c.state.snippets, snippet.id) ?? snippet;
  const tip = snippetHead(c.state, s);
  // SnippetCheck#creation?: with no root ref yet, the first branch may be created whatever its name.
  const branches = commands.filter((cmd) => cmd.ref.startsWith('refs/heads/') && cmd.new !== ZERO).map((cmd) => cmd.ref.slice(11));
  const branch = tip ? s.branch : (firstDefaultBranch(branches, s.branch) ?? s.branch);
  const results = new Map<string, string | null>();
  for (const cmd of commands) {
    if (!isRefName(cmd.ref)) results.set(cmd.ref, 'funny refname');
    else if (cmd.new !== ZERO && !(await objects.type(cmd.new))) results.set(cmd.ref, 'missing necessary objects');
    else if (cmd.ref.startsWith('refs/heads/') && cmd.new !== ZERO && (await objects.type(cmd.new)) !== 'commit') results.set(cmd.ref, 'bad ref');
    else if (cmd.ref === `refs/heads/${branch}` && (tip ?? ZERO) !== cmd.old) results.set(cmd.ref, 'failed to update ref');
    else if (cmd.ref !== `refs/heads/${branch}` && cmd.old !== ZERO) results.set(cmd.ref, 'failed to update ref');
    else results.set(cmd.ref, null);
  }
  const failed = [...results.values()].some((r) => r !== null);
  if (failed && atomic) return { unpack: 'unpack ok', results: new Map(commands.map((cmd) => [cmd.ref, results.get(cmd.ref) ?? 'atomic transaction failed'])), messages: [] };
  const going = commands.filter((cmd) => results.get(cmd.ref) === null);
  if (going.length === 0) return { unpack: 'unpack ok', results, messages: [] };
  // GitLab's checks, against the repository as it was before the push: one refusal declines every ref.
  const refuse = (message: string) => {
    const out = declineAll(going, 'pre-receive hook declined', [`GitLab: ${message}\n`]);
    for (const [ref, r] of out.results) results.set(ref, r);
    return { ...out, results };
  };
  const paths = new Map<string, string[]>();
  for (const cmd of going) {
    if (cmd.new === ZERO || cmd.ref !== `refs/heads/${branch}`) return refuse(SNIPPET_MESSAGES.createDeleteBranch);
    const files = await filesOfPushed(c, pushed, cmd.new);
    if (files.length > SNIPPET_MAX_FILES) return refuse(SNIPPET_MESSAGES.upperLimit);
    if (files.length === 0) return refuse(SNIPPET_MESSAGES.lowerLimit);
    paths.set(cmd.ref, files);
  }
  const cmd = going[0]!;
  await writePushed(c.repo, pushed);
  c.update((draft) => recordSnippetPush(draft, s.id, { branch, head: cmd.new, paths: paths.get(cmd.ref)!, now: c.now }));
  return { unpack: 'unpack ok', results, messages: [] };
};

/** The paths of the files a pushed commit holds (`repository.ls_files(newrev)`), read from the push's objects first, as git lists them. */
async function filesOfPushed(c: PushRun, pushed: Map<string, { type: string; content: Uint8Array }>, commit: string): Promise<string[]> {
  const mine = pushed.get(commit);
  if (!mine) return snippetPathsAt(c.repo, commit);
  const treeOf = async (oid: string): Promise<Tree> => {
    const o = pushed.get(oid);
    return o ? parseTree(o.content) : c.repo.readTree(oid);
  };
  const out: string[] = [];
  const walk = async (oid: string, dir: string): Promise<void> => {
    for (const e of (await treeOf(oid)).values()) {
      const path = dir ? `${dir}/${e.name}` : e.name;
      if (e.type === 'tree') await walk(e.oid, path);
      else out.push(path);
    }
  };
  await walk(parseCommit(mine.content).tree, '');
  return out;
}

const SNIPPET_PATH = /^(?:(.+)\/)?snippets\/(\d+)$/;

/**
 * The snippet a git URL's path names, at its `http_url_to_repo` (Snippet.find_by_id_and_project):
 * a project's snippet under its project's path, a personal one under none.
 */
function snippetRepository(state: State, path: string): ServedRepository | undefined {
  const m = SNIPPET_PATH.exec(gitTarget(state, path).fullPath);
  const snippet = m ? tget(state.snippets, Number(m[2])) : undefined;
  if (!m || !snippet) return undefined;
  const projectPath = m[1];
  const found =
    projectPath === undefined
      ? snippet.projectId === null
      : snippet.projectId !== null && !/^\d+$/.test(projectPath) && projectByIdOrPath(state, projectPath)?.id === snippet.projectId;
  if (!found) return undefined;
  return {
    key: snippetRepoKey(snippet.id),
    anonymousDownload: (s, now) => anonymousCanDownloadSnippet(s, snippet, now),
    check: (s, caller, command, now) => void checkSnippetAccess(s, caller, snippet, command, now),
    refs: (s) => snippetAdvertised(s, snippet),
    push: snippetPushApplier(snippet),
  };
}

/** What the snippets family serves of git: each snippet's repository. */
export const SNIPPETS_GIT: GitPart = { repository: snippetRepository };
