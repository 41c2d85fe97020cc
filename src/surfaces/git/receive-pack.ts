// git-receive-pack over smart HTTP: the ref advertisement, then the commands and the pack of a
// push. GitLab's pre-receive rules (lib/gitlab/checks: push, branch and tag checks) run on every
// command against the repository as it was before the push; one refused command declines them
// all, with GitLab's message on side-band 2 (git prints it as `remote: GitLab: ...`). A push that
// passes writes its objects and moves every ref in one change of the world.
import type { RepositoryObjects } from '../../git/objects.js';
import { declineAll, firstDefaultBranch, isHiddenRef, isRefName, PushObjects, readPushed, writePushed, ZERO, type Command, type Outcome, type Pushed } from '../../git/transfer.js';
import { concat, FLUSH, PktLineError, pkt, readPackets, sideband, text } from '../../git/pktline.js';
import {
  branchNames, branchTip, canDeleteBranch, recordBranchPush, deleteBranchRef, setBranchRef, setTagRef, canPushCode, canPushToBranch, defaultBranchName, draftRefs, findTag, isEmptyRepository, isValidBranchName, protectionsFor,
  refsOf, type TagRef, otherRefTip, setOtherRef, deleteOtherRef, projectCreatedKey, takePostPushMessage,
} from '../../families/repositories/index.js';
import { canAdminTags, canCreateTag, deleteTag, isProtectedTag } from '../../families/tags/index.js';
import type { State } from '../../families/world.js';
import { hasProjectRole, projectAccess } from '../../policy/access.js';
import { projectFullPath } from '../../policy/paths.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import type { Draft } from 'immer';
import { v0Lines, AGENT, type Refs } from './upload-pack.js';

const CAPS = `report-status delete-refs side-band-64k quiet atomic ofs-delta push-options object-format=sha1 ${AGENT}`;

// Gitlab::Checks::BranchCheck, TagCheck and PushCheck messages.
export const PUSH_MESSAGES = {
  deleteDefaultBranch: 'The default branch of a project cannot be deleted.',
  forcePushProtected: 'You are not allowed to force push code to a protected branch on this project.',
  nonMasterDeleteProtected: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
  nonWebDeleteProtected: 'You can only delete protected branches using the web interface.',
  pushProtected: 'You are not allowed to push code to protected branches on this project.',
  createProtected: 'You are not allowed to create protected branches on this project.',
  nonWebCreateProtected: 'You can only create protected branches using the web interface and API.',
  hexBranchName: 'You cannot create a branch with a 40-character hexadecimal branch name.',
  changeExistingTags: 'You are not allowed to change existing tags on this project.',
  updateProtectedTag: 'Protected tags cannot be updated.',
  deleteProtectedTag: 'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
  deleteProtectedTagNonWeb: 'You can only delete protected tags using the web interface.',
  createProtectedTag: 'You are not allowed to create this tag as it is protected.',
  defaultBranchCollision: 'You cannot use default branch name to create a tag',
  prohibitedTagName: 'You cannot create a tag with a prohibited pattern.',
  shaTagName: 'You cannot create a tag with a SHA-1 or SHA-256 tag name.',
  pushCode: 'You are not allowed to push code to this project.',
} as const;

/** `info/refs?service=git-receive-pack`. */
export function receivePackAdvertisement(source: Refs): Uint8Array {
  // Gitaly's receive.hideRefs: GitLab's own ref spaces (merge request heads...) are not a pusher's to see.
  const refs = source().refs.filter((r) => r.name !== 'HEAD' && !isHiddenRef(r.name));
  return concat([pkt('# service=git-receive-pack\n'), FLUSH, ...v0Lines(refs.map(({ name, oid }) => ({ name, oid })), CAPS), FLUSH]);
}

/** What every push has: the repository's objects, the world, the pusher. */
export interface PushBase {
  repo: RepositoryObjects;
  state: State;
  user: User;
  now: number;
  /** The URL the web app lives at, for the message of a push to an empty repository's protected default branch. */
  webBase: string;
  update(change: (draft: Draft<State>) => unknown): unknown;
  /** The push options (`git push -o ...`), as git sent them. */
  pushOptions?: readonly string[];
  /** What the families answer the push with, once its refs moved (PostReceiveService): lines for side-band 2. */
  postReceive?: (options: readonly string[]) => Promise<string[]>;
}

/** A push to a project's repository (or its wiki's). */
export interface PushContext extends PushBase {
  project: Project;
}

/** How a push's commands and pack are applied (a project's repository, its wiki's, a snippet's, a group's wiki's). */
export type Applier<C extends PushBase = PushContext> = (c: C, commands: Command[], packBytes: Uint8Array, atomic: boolean) => Promise<Outcome>;

/** `POST git-receive-pack`. */
export async function receivePack<C extends PushBase>(c: C, body: Uint8Array, applier: Applier<C>): Promise<Uint8Array> {
  try {
    return await receive(c, body, applier);
  } catch (e) {
    if (e instanceof PktLineError) return concat([pkt(`ERR protocol error: ${e.message}\n`), FLUSH]);
    throw e;
  }
}

async function receive<C extends PushBase>(c: C, body: Uint8Array, applier: Applier<C>): Promise<Uint8Array> {
  const first = readPackets(body, 0, true);
  const commands: Command[] = [];
  let caps: string[] = [];
  for (const p of first.packets) {
    let line = text(p);
    if (line === null) continue;
    const nul = line.indexOf('\0');
    if (nul >= 0) {
      caps = line.slice(nul + 1).split(' ');
      line = line.slice(0, nul);
    }
    const [old = '', nw = '', ref = ''] = line.split(' ');
    if (!/^[0-9a-f]{40}$/.test(old) || !/^[0-9a-f]{40}$/.test(nw) || ref === '') return concat([pkt(`ERR protocol error: expected old/new/ref, got '${line}'\n`), FLUSH]);
    commands.push({ old, new: nw, ref });
  }
  let at = first.end;
  // Push options (`git push -o`): those of merge requests act after the push; the others (ci.*) are ignored, as the emulator runs no CI.
  const pushOptions: string[] = [];
  if (caps.includes('push-options') && at < body.length) {
    const options = readPackets(body, at, true);
    for (const p of options.packets) {
      const line = text(p);
      if (line !== null) pushOptions.push(line.replace(/\n$/, ''));
    }
    at = options.end;
  }
  if (commands.length === 0) return new Uint8Array();
  const outcome = await applier({ ...c, pushOptions }, commands, body.subarray(at), caps.includes('atomic'));
  return respond(outcome, commands, caps);
}

function respond(o: Outcome, commands: Command[], caps: string[]): Uint8Array {
  const report = caps.includes('report-status')
    ? concat([pkt(`${o.unpack}\n`), ...commands.map((cmd) => pkt(o.results.get(cmd.ref) ? `ng ${cmd.ref} ${o.results.get(cmd.ref)}\n` : `ok ${cmd.ref}\n`)), FLUSH])
    : new Uint8Array();
  if (!caps.includes('side-band-64k')) return report;
  // The hook's messages are errors, not progress: `quiet` keeps them.
  const messages = o.messages.length > 0 ? sideband(2, new TextEncoder().encode(o.messages.join(''))) : [];
  return concat([...messages, ...sideband(1, report), FLUSH]);
}

/** A push to a project's repository: git's checks, GitLab's pre-receive checks, then every ref in one change. */
export async function applyProjectPush(c: PushContext, commands: Command[], packBytes: Uint8Array, atomic: boolean): Promise<Outcome> {
  const pushed = await readPushed(c.repo, commands, packBytes);
  if (!(pushed instanceof Map)) return pushed;
  const objects = new PushObjects(c.repo, pushed);
  const refs = refsOf(c.state, c.project.id);
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
  const outcome = await checkAndApply(c, objects, pushed, refs, going);
  for (const [ref, r] of outcome.results) results.set(ref, r);
  return { ...outcome, results };
}

async function checkAndApply(
  c: PushContext,
  objects: PushObjects,
  pushed: Map<string, Pushed>,
  refs: ReturnType<typeof refsOf>,
  commands: Command[],
): Promise<Outcome> {
  // GitLab's pre-receive checks, against the repository as it was before the push.
  for (const cmd of commands) {
    const refused = await check(c, objects, refs, cmd);
    if (refused) return declineAll(commands, 'pre-receive hook declined', [`GitLab: ${refused}\n`]);
  }
  // Every object, then every ref, in one change.
  await writePushed(c.repo, pushed);
  const tags = new Map<string, TagRef>();
  for (const cmd of commands) {
    if (!cmd.ref.startsWith('refs/tags/') || cmd.new === ZERO) continue;
    const { commit, message } = await objects.peel(cmd.new);
    tags.set(cmd.ref, { target: cmd.new, commit: commit ?? cmd.new, message: commit && cmd.new !== commit ? message : null });
  }
  const wasEmpty = isEmptyRepository(refs);
  let created: string | null = null;
  c.update((draft) => {
    // PostReceiveService: a message left for this push (the project it created) is taken now.
    created = takePostPushMessage(draft, projectCreatedKey(c.user.id, c.project.id), c.now);
    const project = tget(draft.projects, c.project.id)!;
    const draftedRefs = draftRefs(draft, c.project.id);
    for (const cmd of commands) {
      if (cmd.ref.startsWith('refs/heads/')) {
        const name = cmd.ref.slice(11);
        if (cmd.new === ZERO) deleteBranchRef(draftedRefs, name);
        else setBranchRef(draftedRefs, name, cmd.new);
        recordBranchPush(draft, { projectId: c.project.id, branch: name, before: cmd.old === ZERO ? null : cmd.old, after: cmd.new === ZERO ? null : cmd.new });
      } else if (!cmd.ref.startsWith('refs/tags/')) {
        if (cmd.new === ZERO) deleteOtherRef(draftedRefs, cmd.ref);
        else setOtherRef(draftedRefs, cmd.ref, cmd.new);
      } else {
        const name = cmd.ref.slice(10);
        if (cmd.new === ZERO) {
          if (findTag(draftedRefs, name)) deleteTag(c.state, c.project, name, c.now)(draft);
        } else setTagRef(draftedRefs, name, tags.get(cmd.ref)!);
      }
    }
    if (wasEmpty) {
      const head = firstDefaultBranch([...branchNames(draftedRefs)], defaultBranchName(c.project));
      if (head !== null && head !== defaultBranchName(c.project)) project.defaultBranch = head;
    }
    project.lastActivityAt = c.now;
  });
  // Gitaly prints each post-receive message between a newline and two (printMessages).
  const messages = [...((await c.postReceive?.(c.pushOptions ?? [])) ?? []), ...(created !== null ? [`\n${created}\n\n`] : [])];
  return { unpack: 'unpack ok', results: new Map(commands.map((cmd) => [cmd.ref, null])), messages };
}

function currentTip(c: PushContext, ref: string): string | undefined {
  const refs = refsOf(c.state, c.project.id);
  if (ref.startsWith('refs/heads/')) return branchTip(refs, ref.slice(11));
  if (ref.startsWith('refs/tags/')) return findTag(refs, ref.slice(10))?.target;
  return otherRefTip(refs, ref);
}

/** Gitlab::Checks::PushCheck, BranchCheck and TagCheck for one command: GitLab's message, or null. */
async function check(c: PushContext, objects: PushObjects, refs: ReturnType<typeof refsOf>, cmd: Command): Promise<string | null> {
  const { state, project, user, now } = c;
  if (!canPushCode(state, user, project, now)) return PUSH_MESSAGES.pushCode;
  const creation = cmd.old === ZERO;
  const deletion = cmd.new === ZERO;
  // A ref neither a branch nor a tag (refs/notes/*...): PushCheck only, as BranchCheck and TagCheck skip it.
  if (!cmd.ref.startsWith('refs/heads/') && !cmd.ref.startsWith('refs/tags/')) return null;
  if (cmd.ref.startsWith('refs/heads/')) {
    const branch = cmd.ref.slice(11);
    if (deletion && branch === defaultBranchName(project)) return PUSH_MESSAGES.deleteDefaultBranch;
    if (!deletion && /^[0-9a-f]{40}(-\/|\/|$)/.test(branch)) return PUSH_MESSAGES.hexBranchName;
    if (!deletion && !isValidBranchName(branch)) return 'The branch name is invalid.';
    const protections = protectionsFor(refs, branch);
    if (protections.length === 0) return null;
    // ProtectedBranch.allow_force_push?: any protection of the branch that allows it.
    const forceAllowed = protections.some((p) => p.allowForcePush === true);
    if (!creation && !deletion && !forceAllowed && !(await objects.isAncestor(cmd.old, cmd.new))) return PUSH_MESSAGES.forcePushProtected;
    const canPush = canPushToBranch(state, user, project, branch, now);
    if (isEmptyRepository(refs)) return canPush ? null : emptyProjectMessage(c);
    if (creation) {
      if (canPush) return null;
      const access = projectAccess(state, user, project, now);
      const canMerge = user.admin || protections.some((p) => p.mergeAccessLevel > 0 && access >= p.mergeAccessLevel);
      return canMerge ? PUSH_MESSAGES.nonWebCreateProtected : PUSH_MESSAGES.createProtected;
    }
    if (deletion) return canDeleteBranch(state, user, project, branch, now) ? PUSH_MESSAGES.nonWebDeleteProtected : PUSH_MESSAGES.nonMasterDeleteProtected;
    return canPush ? null : PUSH_MESSAGES.pushProtected;
  }
  const tag = cmd.ref.slice(10);
  if (findTag(refs, tag) && !canAdminTags(state, user, project, now)) return PUSH_MESSAGES.changeExistingTags;
  if (creation && tag === defaultBranchName(project)) return PUSH_MESSAGES.defaultBranchCollision;
  if (!deletion) {
    if (!isValidBranchName(tag) || tag.startsWith('refs/tags/')) return PUSH_MESSAGES.prohibitedTagName;
    if (/^[0-9a-f]{40}/.test(tag)) return PUSH_MESSAGES.shaTagName;
  }
  if (!isProtectedTag(refs, tag)) return null;
  if (!creation && !deletion) return PUSH_MESSAGES.updateProtectedTag;
  if (deletion) return hasProjectRole(state, user, project, ACCESS.maintainer, now) ? PUSH_MESSAGES.deleteProtectedTagNonWeb : PUSH_MESSAGES.deleteProtectedTag;
  return canCreateTag(state, user, project, tag, now) ? null : PUSH_MESSAGES.createProtectedTag;
}

/** BranchCheck#empty_project_push_message. */
function emptyProjectMessage(c: PushContext): string {
  const path = projectFullPath(c.state, c.project);
  return `\nA default branch (e.g. main) does not yet exist for ${path}\nAsk a project Owner or Maintainer to create a default branch:\n\n  ${c.webBase}/${path}/-/project_members\n\n`;
}
