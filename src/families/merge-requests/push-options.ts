// What GitLab's post-receive answers a push with, for merge requests (PostReceiveService): the
// merge request push options acted on (`git push -o merge_request.create -o
// merge_request.target=main`, Gitlab::PushOptions and MergeRequests::PushOptionsHandlerService),
// their errors as a warning, and a link for each pushed branch (MergeRequests::GetUrlsService):
// to its open merge request, or to open one. Lines as Gitaly prints them after `remote:`.
import { ApiError } from '../../core/errors.js';
import { commitsBetween } from '../../git/merge-base.js';
import { canReadProject } from '../../policy/access.js';
import { projectByIdOrPath, projectFullPath } from '../../policy/paths.js';
import type { Project, User } from '../../store/state.js';
import { pget, tget } from '../../store/table.js';
import type { Context } from '../define.js';
import type { PushChange } from '../stream.js';
import { branchTip, defaultBranchName, objectsOf, refsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import { createMergeRequest, editMergeRequest } from './rules.js';
import type { MergeRequest } from './records.js';
import { openMergeRequestsOn } from './store.js';
import { save } from './auto-merge.js';
import { findOrCreateLabels } from '../labels/index.js';
import { milestoneIdByTitle } from '../issuables/index.js';

const KEYS = ['assign', 'auto_merge', 'create', 'description', 'draft', 'label', 'merge_when_pipeline_succeeds', 'milestone', 'remove_source_branch', 'target', 'target_project', 'title', 'unassign', 'unlabel'];
const MULTI = ['label', 'unlabel', 'assign', 'unassign'];
/** PushOptionsHandlerService::LIMIT. */
const LIMIT = 10;
/** Gitaly's terminal width for an alert. */
const WIDTH = 72;

interface MergeRequestOptions {
  /** A single-valued option: its value, or true when given without one. */
  one: Map<string, string | true>;
  /** A multi-valued option (`label`, `assign`, ...): its values in the order given. */
  many: Map<string, string[]>;
}

/** Gitlab::PushOptions, for the `merge_request` namespace (alias `mr`): `namespace.key[=value]`, unknown keys dropped. */
export function mergeRequestOptions(raw: readonly string[]): MergeRequestOptions {
  const out: MergeRequestOptions = { one: new Map(), many: new Map() };
  for (const option of raw) {
    const m = /^([^.]+)\.([^=]+)=?(.*)$/s.exec(option);
    if (!m) continue;
    const namespace = m[1]!.trim() === 'mr' ? 'merge_request' : m[1]!.trim();
    const key = m[2]!.trim();
    const value = m[3]!.trim();
    if (namespace !== 'merge_request' || !KEYS.includes(key)) continue;
    if (MULTI.includes(key)) {
      const list = out.many.get(key) ?? [];
      if (!list.includes(value || 'true')) list.push(value || 'true');
      out.many.set(key, list);
    } else out.one.set(key, value === '' ? true : value);
  }
  return out;
}

/** Gitaly's printMessages: a basic message between a newline and two, an alert centred between rules of `=`. */
const basic = (message: string) => `\n${message}\n\n`;
function alert(message: string): string {
  const lines = message.split('\n').map((line) => {
    const t = line.trim();
    return ' '.repeat(Math.max(Math.floor((WIDTH - t.length) / 2), 0)) + t;
  });
  return `\n${'='.repeat(WIDTH)}\n\n${lines.join('\n')}\n\n${'='.repeat(WIDTH)}\n\n`;
}

/** `source_branch.titleize.humanize`: words apart, the first capitalised. */
function humanize(branch: string): string {
  const words = branch.replace(/[-_]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const isTrue = (v: string | true | undefined) => v === true || (typeof v === 'string' && /^(true|t|yes|y|1)$/i.test(v));

/** Usernames or ids (PushOptionsHandlerService#convert_to_user_ids), those that name a user. */
function userIds(state: State, values: readonly string[]): number[] {
  return values.flatMap((v) => {
    const id = /^\d+$/.test(v) ? Number(v) : tget(state.usernames, v);
    return id !== undefined && tget(state.users, id) ? [id] : [];
  });
}

/** What the push options change of a merge request (`base_params`), as fields. */
function changes(ctx: Context<unknown>, project: Project, o: MergeRequestOptions, mr: Pick<MergeRequest, 'title' | 'labelIds' | 'assigneeIds'>): Partial<MergeRequest> {
  const fields: Partial<MergeRequest> = {};
  const title = o.one.get('title');
  if (typeof title === 'string') fields.title = title;
  const description = o.one.get('description');
  if (typeof description === 'string') fields.description = description.replace(/\\n/g, '\n');
  if (isTrue(o.one.get('draft'))) {
    const t = fields.title ?? mr.title;
    if (!/^\s*draft:/i.test(t)) fields.title = `Draft: ${t}`;
  }
  const target = o.one.get('target');
  if (typeof target === 'string') fields.targetBranch = target;
  if (o.one.has('remove_source_branch')) fields.removeSourceBranch = isTrue(o.one.get('remove_source_branch'));
  const add = o.many.get('label') ?? [];
  const remove = new Set(o.many.get('unlabel') ?? []);
  if (add.length || remove.size) {
    const added = ctx.update((draft) => findOrCreateLabels(draft, project, add, ctx.now()));
    fields.labelIds = [...new Set([...mr.labelIds, ...added])].filter((id) => !remove.has(tget(ctx.state.labels, id)?.title ?? ''));
  }
  const assign = userIds(ctx.state, o.many.get('assign') ?? []);
  const unassign = new Set(userIds(ctx.state, o.many.get('unassign') ?? []));
  if (assign.length || unassign.size) fields.assigneeIds = [...new Set([...mr.assigneeIds, ...assign])].filter((id) => !unassign.has(id));
  const milestone = o.one.get('milestone');
  if (typeof milestone === 'string') {
    const id = milestoneIdByTitle(ctx.state, project, milestone);
    if (id !== null) fields.milestoneId = id;
  }
  return fields;
}

/** The title and description MergeRequests::BuildService gives: one commit's, else the branch's name; a draft when there is no commit. */
async function defaults(ctx: Context<unknown>, project: Project, branch: string, target: string): Promise<{ title: string; description: string }> {
  const repo = objectsOf(ctx, project);
  const refs = refsOf(ctx.state, project.id);
  const head = branchTip(refs, branch);
  const base = branchTip(refs, target);
  const commits = head && base ? await commitsBetween(repo, base, head) : [];
  if (commits.length === 1) {
    const [title = '', ...rest] = (await repo.readCommit(commits[0]!)).message.split('\n');
    return { title, description: rest.join('\n').trim() };
  }
  return { title: commits.length === 0 ? `Draft: ${humanize(branch)}` : humanize(branch), description: '' };
}

/** A refusal as the merge request's full messages read (`Title can't be blank`). */
function errorText(e: ApiError): string {
  const m = typeof e.body === 'object' && e.body !== null ? (e.body as { message?: unknown }).message : e.body;
  if (Array.isArray(m)) return m.join(', ');
  if (m && typeof m === 'object') {
    return Object.entries(m).flatMap(([field, list]) => (Array.isArray(list) ? list : [list]).map((x) => `${field.charAt(0).toUpperCase()}${field.slice(1).replace(/_/g, ' ')} ${String(x)}`)).join(', ');
  }
  return String(m ?? e.message);
}

/**
 * `merge_params`: `merge_when_pipeline_succeeds` (or its newer name `auto_merge`) sets the merge
 * request to merge, as the pusher, when the head pipeline of the pushed commit succeeds. The
 * attribute is written as it is, without AutoMergeService's checks or its note; false unsets it.
 */
function autoMergeOption(ctx: Context<unknown>, project: Project, user: User, o: MergeRequestOptions, branch: string, sha: string | undefined, iid: number): void {
  const value = o.one.has('merge_when_pipeline_succeeds') ? o.one.get('merge_when_pipeline_succeeds') : o.one.get('auto_merge');
  if (value === undefined) return;
  ctx.update((draft) => {
    const mr = pget(draft.mergeRequests, project.id, iid) as MergeRequest | undefined;
    if (!mr || mr.sourceBranch !== branch) return;
    save(draft, project, mr, { autoMerge: isTrue(value) ? { strategy: 'merge_when_pipeline_succeeds', userId: user.id, sha: sha ?? mr.sha } : null });
  });
}

/** MergeRequests::PushOptionsHandlerService#execute: the errors it collects. */
async function handlePushOptions(ctx: Context<unknown>, project: Project, user: User, branches: readonly string[], o: MergeRequestOptions, tips: ReadonlyMap<string, string>): Promise<string[]> {
  const path = projectFullPath(ctx.state, project);
  const errors: string[] = [];
  const targetProject = o.one.get('target_project');
  if (typeof targetProject === 'string' && targetProject !== path) {
    // No forks here: another project is never in this one's network; one the caller cannot see, access denied.
    const other = projectByIdOrPath(ctx.state, targetProject);
    errors.push(other && canReadProject(ctx.state, user, other, ctx.now()) ? `Projects ${path} and ${projectFullPath(ctx.state, other)} are not in the same network` : 'User access was denied');
    return errors;
  }
  if (project.features.merge_requests === 'disabled') errors.push(`Merge requests are not enabled for project ${path}`);
  if (branches.length > LIMIT) errors.push(`Too many branches pushed (${branches.length} were pushed, limit is ${LIMIT})`);
  const target = o.one.get('target');
  if (typeof target === 'string' && !branchTip(refsOf(ctx.state, project.id), target)) errors.push(`Target branch ${path}:${target} does not exist`);
  if (errors.length) return errors;
  for (const branch of branches) {
    try {
      const open = openMergeRequestsOn(ctx.state, project.id, 'source', branch)[0];
      if (open) {
        ctx.update(editMergeRequest(project, open, user, changes(ctx, project, o, open), ctx.now()));
        autoMergeOption(ctx, project, user, o, branch, tips.get(branch), open.iid);
        continue;
      }
      if (!o.one.has('create')) {
        errors.push(`A merge_request.create push option is required to create a merge request for branch ${branch}`);
        continue;
      }
      const targetBranch = typeof target === 'string' ? target : defaultBranchName(project);
      const base = await defaults(ctx, project, branch, targetBranch);
      const fields = changes(ctx, project, o, { title: base.title, labelIds: [], assigneeIds: [user.id] });
      const recipe = await createMergeRequest(ctx.state, objectsOf(ctx, project), project, user, {
        title: fields.title ?? base.title, description: fields.description ?? base.description, sourceBranch: branch, targetBranch,
        assigneeIds: fields.assigneeIds ?? [user.id], labels: (fields.labelIds ?? []).map((id) => tget(ctx.state.labels, id)!.title),
        milestoneId: fields.milestoneId, removeSourceBranch: fields.removeSourceBranch,
      }, ctx.now());
      const made = ctx.update(recipe);
      autoMergeOption(ctx, project, user, o, branch, tips.get(branch), made.iid);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      errors.push(errorText(e));
    }
  }
  return errors;
}

/**
 * PostReceiveService for a project's push: the push options' warning (if they failed), then a
 * link for each pushed branch but the default one and deleted ones.
 */
export async function mergeRequestPostReceive(ctx: Context<unknown>, pushes: readonly PushChange[], rawOptions: readonly string[]): Promise<string[]> {
  const project = pushes.length ? tget(ctx.state.projects, pushes[0]!.projectId) : undefined;
  const user = ctx.user;
  if (!project || !user) return [];
  const head = defaultBranchName(project);
  const kept = pushes.filter((p) => p.after !== null && p.ref !== head && p.refType === 'branch');
  const branches = [...new Set(kept.map((p) => p.ref))];
  const tips = new Map(kept.map((p) => [p.ref, p.after!]));
  const messages: string[] = [];
  const o = mergeRequestOptions(rawOptions);
  if (o.one.size || o.many.size) {
    const errors = await handlePushOptions(ctx, project, user, branches, o, tips);
    if (errors.length) {
      messages.push(alert(`WARNINGS:\nError encountered with push options ${rawOptions.map((r) => `'${r}'`).join(' ')}: ${errors.join('\n\n')}`));
    }
  }
  // PostReceiveService#merge_request_urls: none when the project turned the links off.
  if (project.features.merge_requests === 'disabled' || project.settings.printing_merge_request_link_enabled === false) return messages;
  const web = `${ctx.webBase}/${projectFullPath(ctx.state, project)}`;
  for (const branch of branches) {
    const open = openMergeRequestsOn(ctx.state, project.id, 'source', branch)[0];
    messages.push(basic(open
      ? `View merge request for ${branch}:\n  ${web}/-/merge_requests/${open.iid}`
      : `To create a merge request for ${branch}, visit:\n  ${web}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}`));
  }
  return messages;
}
