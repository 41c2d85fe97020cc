// A push to a project's repository (git-receive-pack's commands and pack, read by the git
// surface): git's own checks first (names, objects, refs that moved meanwhile, `--atomic`), then
// GitLab's pre-receive checks against the repository as it was before the push (PushCheck, then
// the rule of each ref's owner: BranchCheck here, TagCheck in the tags family); one refused
// command declines them all, with GitLab's message on side-band 2 (git prints it as
// `remote: GitLab: ...`). A push that passes writes its objects and moves every ref in one
// change of the world.
import { projectAccess } from '../../policy/access.js';
import { messageError } from '../../core/errors.js';
import { ACCESS } from '../../store/state.js';
import { projectFullPath } from '../../policy/paths.js';
import { tget } from '../../store/table.js';
import { declineAll, firstDefaultBranch, isHiddenRef, isRefName, movement, PushObjects, readPushed, writePushed, ZERO, type Command, type Outcome, type Pushed } from '../../git/transfer.js';
import type { Change, ProjectPush, RefRule } from '../define.js';
import { branchNames, branchTip, deleteBranchRef, deleteOtherRef, findTag, isEmptyRepository, otherRefTip, setBranchRef, setOtherRef } from './refs.js';
import { projectCreatedKey, recordPush, takePostPushMessage } from './post-push.js';
import { canDeleteBranch, canPushCode, canPushToBranch, defaultBranchName, draftRefs, emptyAndProtected, isValidBranchName, protectionsFor, refsOf } from './rules.js';

// Gitlab::Checks::BranchCheck and PushCheck messages.
export const PUSH_MESSAGES = {
  deleteDefaultBranch: 'The default branch of a project cannot be deleted.',
  forcePushProtected: 'You are not allowed to force push code to a protected branch on this project.',
  nonMasterDeleteProtected: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
  nonWebDeleteProtected: 'You can only delete protected branches using the web interface.',
  pushProtected: 'You are not allowed to push code to protected branches on this project.',
  createProtected: 'You are not allowed to create protected branches on this project.',
  nonWebCreateProtected: 'You can only create protected branches using the web interface and API.',
  hexBranchName: 'You cannot create a branch with a 40-character hexadecimal branch name.',
  pushCode: 'You are not allowed to push code to this project.',
} as const;

/**
 * A check other families add to every push to a project's repository, after the rule of each
 * ref (EE's PushRuleCheck, which runs after BranchCheck and TagCheck): GitLab's message, or null.
 */
export type PushCheck = (c: ProjectPush, cmd: Command, objects: PushObjects) => Promise<string | null> | string | null;
const PUSH_CHECKS: PushCheck[] = [];

/** Adds a check to every push to a project's repository (its family registers it when it loads). */
export function registerPushCheck(check: PushCheck): void {
  PUSH_CHECKS.push(check);
}

/** What a protection of a branch says a push may do (a project's ProtectedBranch, or its group's). */
export interface BranchProtection {
  pushAccessLevel: number;
  mergeAccessLevel: number;
  allowForcePush?: boolean;
}

/** Protections of a project's branches that other families keep (its group's protected branches). */
type MoreProtections = (state: ProjectPush['state'], project: ProjectPush['project'], branch: string) => BranchProtection[];
const MORE_PROTECTIONS: MoreProtections[] = [];

/** Adds protections a push to a project's branches must also satisfy (its family registers them when it loads). */
export function registerBranchProtections(more: MoreProtections): void {
  MORE_PROTECTIONS.push(more);
}

/** A check other families add to every commit made through the API (Gitaly runs the pre-receive hook for it too). */
export type WebCommitCheck = (c: { state: ProjectPush['state']; project: ProjectPush['project'] }, branch: string, sha: string, repo: ProjectPush['repo']) => Promise<string | null> | string | null;
const WEB_COMMIT_CHECKS: WebCommitCheck[] = [];

export function registerWebCommitCheck(check: WebCommitCheck): void {
  WEB_COMMIT_CHECKS.push(check);
}

/** The pre-receive checks of a commit made through the API on `branch`: throws GitLab's 400 with the hook's message. */
export async function checkWebCommit(c: { state: ProjectPush['state']; project: ProjectPush['project'] }, branch: string, sha: string, repo: ProjectPush['repo']): Promise<void> {
  for (const check of WEB_COMMIT_CHECKS) {
    const refused = await check(c, branch, sha, repo);
    if (refused) throw messageError(400, refused);
  }
}

/** A push to a project's repository: git's checks, GitLab's pre-receive checks, then every ref in one change. */
export async function applyProjectPush(c: ProjectPush, commands: Command[], packBytes: Uint8Array, atomic: boolean): Promise<Outcome> {
  const pushed = await readPushed(c.repo, commands, packBytes);
  if (!(pushed instanceof Map)) return pushed;
  const objects = new PushObjects(c.repo, pushed);
  const results = new Map<string, string | null>();
  // git's own checks first: names it refuses, objects it lacks, refs that moved meanwhile.
  for (const cmd of commands) {
    const current = currentTip(c, cmd.ref);
    if (!isRefName(cmd.ref)) results.set(cmd.ref, 'funny refname');
    else if (isHiddenRef(cmd.ref)) results.set(cmd.ref, 'deny updating a hidden ref');
    else if (cmd.new !== ZERO && !(await objects.type(cmd.new))) results.set(cmd.ref, 'missing necessary objects');
    else if (cmd.ref.startsWith('refs/heads/') && cmd.new !== ZERO && (await objects.type(cmd.new)) !== 'commit') results.set(cmd.ref, 'bad ref');
    else if ((current ?? ZERO) !== cmd.old && !(cmd.new === ZERO && current === undefined)) results.set(cmd.ref, 'failed to update ref');
    else results.set(cmd.ref, null);
  }
  const failed = [...results.values()].some((r) => r !== null);
  if (failed && atomic) {
    // `git push --atomic`: one ref that cannot move holds back every other.
    for (const [ref, r] of results) if (r === null) results.set(ref, 'atomic transaction failed');
    return { unpack: 'unpack ok', results, messages: [] };
  }
  // Otherwise the refs git itself refused stay refused, and the others go on to GitLab's checks.
  const going = commands.filter((cmd) => results.get(cmd.ref) === null);
  if (going.length === 0) return { unpack: 'unpack ok', results, messages: [] };
  const outcome = await checkAndApply(c, objects, pushed, going);
  for (const [ref, r] of outcome.results) results.set(ref, r);
  return { ...outcome, results };
}

/** The rule of a ref: its owner's (the longest prefix that matches), else the one of every ref. */
const ruleOf = (c: ProjectPush, ref: string): RefRule => c.refRule(ref) ?? OTHER_REFS;

async function checkAndApply(c: ProjectPush, objects: PushObjects, pushed: Map<string, Pushed>, commands: Command[]): Promise<Outcome> {
  // GitLab's pre-receive checks, against the repository as it was before the push: PushCheck, then the ref's owner's.
  for (const cmd of commands) {
    let refused = canPushCode(c.state, c.user, c.project, c.now) ? await ruleOf(c, cmd.ref).check(c, cmd, objects) : PUSH_MESSAGES.pushCode;
    for (const check of PUSH_CHECKS) refused ??= await check(c, cmd, objects);
    if (refused) return declineAll(commands, 'pre-receive hook declined', [`GitLab: ${refused}\n`]);
  }
  // Every object, then every ref, in one change.
  await writePushed(c.repo, pushed);
  const updates: Change[] = [];
  for (const cmd of commands) updates.push(await ruleOf(c, cmd.ref).update(c, cmd, objects));
  const wasEmpty = isEmptyRepository(refsOf(c.state, c.project.id));
  let created: string | null = null;
  c.update((draft) => {
    // PostReceiveService: a message left for this push (the project it created) is taken now.
    created = takePostPushMessage(draft, projectCreatedKey(c.user.id, c.project.id), c.now);
    const project = tget(draft.projects, c.project.id)!;
    const draftedRefs = draftRefs(draft, c.project.id);
    for (const update of updates) update(draft);
    if (wasEmpty) {
      const head = firstDefaultBranch([...branchNames(draftedRefs)], defaultBranchName(c.project));
      if (head !== null && head !== defaultBranchName(c.project)) project.defaultBranch = head;
    }
    project.lastActivityAt = c.now;
  });
  // Gitaly prints each post-receive message between a newline and two (printMessages).
  const messages = [...((await c.postReceive?.(c.pushOptions)) ?? []), ...(created !== null ? [`\n${created}\n\n`] : [])];
  return { unpack: 'unpack ok', results: new Map(commands.map((cmd) => [cmd.ref, null])), messages };
}

function currentTip(c: ProjectPush, ref: string): string | undefined {
  const refs = refsOf(c.state, c.project.id);
  if (ref.startsWith('refs/heads/')) return branchTip(refs, ref.slice(11));
  if (ref.startsWith('refs/tags/')) return findTag(refs, ref.slice(10))?.target;
  return otherRefTip(refs, ref);
}

/** A ref neither a branch nor a tag (refs/notes/*...): PushCheck only, as BranchCheck and TagCheck skip it. */
const OTHER_REFS: RefRule = {
  prefix: 'refs/',
  check: () => null,
  update: (c, cmd) => (draft) => {
    const refs = draftRefs(draft, c.project.id);
    if (cmd.new === ZERO) deleteOtherRef(refs, cmd.ref);
    else setOtherRef(refs, cmd.ref, cmd.new);
  },
};

/** Gitlab::Checks::BranchCheck, and a branch's move (which the families' post-receive work hears of). */
const BRANCHES: RefRule = {
  prefix: 'refs/heads/',
  async check(c, cmd, objects) {
    const { state, project, user, now } = c;
    const refs = refsOf(state, project.id);
    const { creation, deletion } = movement(cmd);
    const branch = cmd.ref.slice(11);
    if (deletion && branch === defaultBranchName(project)) return PUSH_MESSAGES.deleteDefaultBranch;
    if (!deletion && /^[0-9a-f]{40}(-\/|\/|$)/.test(branch)) return PUSH_MESSAGES.hexBranchName;
    if (!deletion && !isValidBranchName(branch)) return 'The branch name is invalid.';
    const own = protectionsFor(refs, branch);
    const more = MORE_PROTECTIONS.flatMap((m) => m(state, project, branch));
    const protections: BranchProtection[] = [...own, ...more];
    if (protections.length === 0 && !emptyAndProtected(state, refs)) return null;
    // ProtectedBranch.allow_force_push?: any protection of the branch that allows it.
    const forceAllowed = protections.some((p) => p.allowForcePush === true);
    if (!creation && !deletion && !forceAllowed && !(await objects.isAncestor(cmd.old, cmd.new))) return PUSH_MESSAGES.forcePushProtected;
    // ProtectedBranch access: any protection of the branch, the project's or its group's, that lets the user push.
    const access = projectAccess(state, user, project, now);
    const canPush = more.length === 0 ? canPushToBranch(state, user, project, branch, now) : canPushCode(state, user, project, now) && (user.admin || protections.some((p) => p.pushAccessLevel > 0 && access >= p.pushAccessLevel));
    if (isEmptyRepository(refs)) return canPush ? null : emptyProjectMessage(c);
    if (creation) {
      if (canPush) return null;
      const canMerge = user.admin || protections.some((p) => p.mergeAccessLevel > 0 && access >= p.mergeAccessLevel);
      return canMerge ? PUSH_MESSAGES.nonWebCreateProtected : PUSH_MESSAGES.createProtected;
    }
    if (deletion) {
      const canDelete = more.length === 0 ? canDeleteBranch(state, user, project, branch, now) : user.admin || access >= ACCESS.maintainer;
      return canDelete ? PUSH_MESSAGES.nonWebDeleteProtected : PUSH_MESSAGES.nonMasterDeleteProtected;
    }
    return canPush ? null : PUSH_MESSAGES.pushProtected;
  },
  update: (c, cmd) => (draft) => {
    const name = cmd.ref.slice(11);
    const refs = draftRefs(draft, c.project.id);
    if (cmd.new === ZERO) deleteBranchRef(refs, name);
    else setBranchRef(refs, name, cmd.new);
    recordPush(draft, { projectId: c.project.id, ref: name, before: cmd.old === ZERO ? null : cmd.old, after: cmd.new === ZERO ? null : cmd.new });
  },
};

/** The rules of the refs this family owns in a project's repository: its branches, and every ref no other family rules. */
export const REPOSITORY_REF_RULES: readonly RefRule[] = [BRANCHES, OTHER_REFS];

/** BranchCheck#empty_project_push_message. */
function emptyProjectMessage(c: ProjectPush): string {
  const path = projectFullPath(c.state, c.project);
  return `\nA default branch (e.g. main) does not yet exist for ${path}\nAsk a project Owner or Maintainer to create a default branch:\n\n  ${c.webBase}/${path}/-/project_members\n\n`;
}
