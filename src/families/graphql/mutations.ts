// GitLab's mutations (app/graphql/mutations/**) through the services the REST routes use. A
// mutation runs as one change of the world: a service that refuses throws before anything is
// kept, and its reason is the payload's `errors`; a resource the caller may not reach (or may not
// change) is GitLab's top-level error and a null payload.
import { GraphQLError } from 'graphql';
import { ApiError } from '../../core/errors.js';
import type { Project, User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { findUserByUsername } from '../users/index.js';
import { canCreateIssue, canUpdateIssue, createIssue, issueById, projectIssues, readableIssue, updateIssue, type Issue, type IssueInput } from '../issues/index.js';
import { labelById, projectLabelOwners } from '../labels/index.js';
import { canAdminNote, canCreateNote, createNote, destroyNote, findNoteable, noteReadable, updateNoteBody } from '../notes/index.js';
import { findNote, noteKey, type Note } from '../../store/notes.js';
import {
  acceptMergeRequest, canCreateMergeRequest, canUpdateMergeRequest, checkedMergeRequest, createMergeRequest, mergeWay, draftlessTitle, editMergeRequest, readableMergeRequest, type MergeRequest,
} from '../merge-requests/index.js';
import { objectsOf } from '../repositories/index.js';
import { applySocialUpdates, awardEmoji, findTodo, markTodoDone, socialTarget } from '../issuables/index.js';
import { canUpdateBuilds, cancelPipeline, projectPipelines, retryPipeline, type Pipeline } from '../ci/index.js';
import { plist, tvalues } from '../../store/table.js';
import type { Graph } from './model.js';

/** Gitlab::Graphql::Authorize::AuthorizeResource::RESOURCE_ACCESS_ERROR. */
export const RESOURCE_ACCESS_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

const refused = () => new GraphQLError(RESOURCE_ACCESS_ERROR, { extensions: { code: 'RESOURCE_NOT_AVAILABLE' } });

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A service's refusal as the payload's `errors`: ActiveModel's full messages. */
function messagesOf(e: ApiError): string[] {
  const body = e.body as { message?: unknown; error?: unknown } | string;
  const message = typeof body === 'object' && body !== null ? body.message ?? body.error : body;
  if (typeof message === 'string') return [message.replace(/^\d{3} [\w ]+? - /, '')];
  if (Array.isArray(message)) return message.map(String);
  if (typeof message === 'object' && message !== null) {
    return Object.entries(message as Record<string, unknown>).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((m) => `${capitalize(k.replace(/_/g, ' '))} ${String(m)}`));
  }
  return [e.message];
}

/** Runs one change of the world; a service's refusal is the payload's errors and keeps nothing. */
function attempt<T>(g: Graph, run: () => T): { value: T | null; errors: string[] } {
  try {
    return { value: run(), errors: [] };
  } catch (e) {
    if (e instanceof ApiError && e.status !== 404 && e.status !== 403) return { value: null, errors: messagesOf(e) };
    if (e instanceof ApiError) throw refused();
    throw e;
  }
}

function signedIn(g: Graph): User {
  if (!g.user) throw refused();
  return g.user;
}

function projectOf(g: Graph, input: Record<string, unknown>): Project {
  const p = typeof input.projectPath === 'string' ? g.project(input.projectPath) : null;
  if (!p) throw refused();
  return p;
}

const idOf = (value: unknown, ...types: string[]): number => {
  const m = typeof value === 'string' ? /^gid:\/\/gitlab\/([\w:]+)\/(\d+)$/.exec(value) : null;
  if (!m || !types.includes(m[1]!)) throw new GraphQLError(`${JSON.stringify(value)} is not a valid Global ID of type ${types[0]}`, { extensions: { code: 'argumentError' } });
  return Number(m[2]);
};

/** Label global ids of labels the project may use (its own and its groups'). */
function labelIds(g: Graph, project: Project, values: unknown): number[] | undefined {
  if (!Array.isArray(values)) return undefined;
  const owners = projectLabelOwners(g.state, project);
  return values.map((v) => idOf(v, 'Label', 'ProjectLabel', 'GroupLabel')).filter((id) => {
    const l = labelById(g.state, id);
    return !!l && owners.some((o) => ('projectId' in o ? o.projectId === l.projectId : o.groupId === l.groupId));
  });
}

const dateOnly = (v: unknown): string | null | undefined => (v === null ? null : typeof v === 'string' ? v.slice(0, 10) : undefined);

function issueInput(g: Graph, project: Project, input: Record<string, unknown>): IssueInput {
  const out: IssueInput = {};
  if (typeof input.title === 'string') out.title = input.title;
  if (typeof input.description === 'string') out.description = input.description;
  if (typeof input.confidential === 'boolean') out.confidential = input.confidential;
  if (typeof input.locked === 'boolean') out.discussionLocked = input.locked;
  if ('dueDate' in input) out.dueDate = dateOnly(input.dueDate);
  if (Array.isArray(input.labels)) out.labels = input.labels.filter((l): l is string => typeof l === 'string');
  if ('milestoneId' in input) out.milestoneId = input.milestoneId === null ? null : idOf(input.milestoneId, 'Milestone');
  if (Array.isArray(input.assigneeIds)) out.assigneeIds = input.assigneeIds.map((v) => idOf(v, 'User'));
  if (typeof input.type === 'string') out.issueType = input.type.toLowerCase() as IssueInput['issueType'];
  if (input.stateEvent === 'CLOSE') out.stateEvent = 'close';
  if (input.stateEvent === 'REOPEN') out.stateEvent = 'reopen';
  const set = labelIds(g, project, input.labelIds);
  const add = labelIds(g, project, input.addLabelIds);
  const remove = labelIds(g, project, input.removeLabelIds);
  if (set) out.labelIds = set;
  if (add) out.addLabelIds = add;
  if (remove) out.removeLabelIds = remove;
  return out;
}

async function issueNode(g: Graph, issue: Issue | null) {
  if (!issue) return null;
  const { IssueNode } = await import('./model.js');
  return new IssueNode(g, issue);
}

/** The issue an update names by project path and iid, when the caller may change it. */
function issueToChange(g: Graph, input: Record<string, unknown>): { project: Project; issue: Issue; user: User } {
  const user = signedIn(g);
  const project = projectOf(g, input);
  const iid = typeof input.iid === 'string' && /^\d+$/.test(input.iid) ? Number(input.iid) : NaN;
  const issue = Number.isInteger(iid) ? readableIssue(g.state, user, project, iid, g.now) : undefined;
  if (!issue || !canUpdateIssue(g.state, user, project, issue, g.now)) throw refused();
  return { project, issue, user };
}

/** A setter's payload: the issue as the change left it, or the service's refusal and the issue as it was. */
async function issueChanged(g: Graph, input: Record<string, unknown>, issue: Issue, change: () => unknown) {
  const { errors } = attempt(g, change);
  return { clientMutationId: input.clientMutationId ?? null, errors, issue: await issueNode(g, issueById(g.ctx.state, issue.id) ?? null) };
}

export const mutations = {
  /** Mutations::Issues::Create. */
  async createIssue(g: Graph, input: Record<string, unknown>) {
    const user = signedIn(g);
    const project = projectOf(g, input);
    if (!canCreateIssue(g.state, user, project, g.now)) throw refused();
    const fields = issueInput(g, project, input);
    const { value, errors } = attempt(g, () => g.ctx.update(createIssue(g.state, project, user, { ...fields, title: String(input.title) }, g.now)));
    return { clientMutationId: input.clientMutationId ?? null, errors, issue: await issueNode(g, value) };
  },

  /** Mutations::Issues::Update. */
  async updateIssue(g: Graph, input: Record<string, unknown>) {
    const { project, issue, user } = issueToChange(g, input);
    const fields = issueInput(g, project, input);
    const { value, errors } = attempt(g, () => g.ctx.update(updateIssue(g.state, project, issue, user, fields, g.now)));
    return { clientMutationId: input.clientMutationId ?? null, errors, issue: await issueNode(g, value ?? issueById(g.state, issue.id) ?? null) };
  },

  /** Mutations::Issues::SetDueDate. */
  async issueSetDueDate(g: Graph, input: Record<string, unknown>) {
    const { project, issue, user } = issueToChange(g, input);
    const { value, errors } = attempt(g, () => g.ctx.update(updateIssue(g.state, project, issue, user, { dueDate: dateOnly(input.dueDate) ?? null }, g.now)));
    return { clientMutationId: input.clientMutationId ?? null, errors, issue: await issueNode(g, value ?? issueById(g.state, issue.id) ?? null) };
  },

  /** Mutations::Issues::SetAssignees: usernames replace, join or leave the assignees (`operationMode`). */
  async issueSetAssignees(g: Graph, input: Record<string, unknown>) {
    const { project, issue, user } = issueToChange(g, input);
    const named = (Array.isArray(input.assigneeUsernames) ? input.assigneeUsernames : []).flatMap((u) => {
      const found = typeof u === 'string' ? findUserByUsername(g.state, u) : undefined;
      return found ? [found.id] : [];
    });
    const mode = input.operationMode ?? 'REPLACE';
    const ids = mode === 'APPEND' ? [...new Set([...issue.assigneeIds, ...named])] : mode === 'REMOVE' ? issue.assigneeIds.filter((id) => !named.includes(id)) : named;
    return issueChanged(g, input, issue, () => g.ctx.update(updateIssue(g.state, project, issue, user, { assigneeIds: ids }, g.now)));
  },

  /** Mutations::Issues::SetConfidential. */
  async issueSetConfidential(g: Graph, input: Record<string, unknown>) {
    const { project, issue, user } = issueToChange(g, input);
    return issueChanged(g, input, issue, () => g.ctx.update(updateIssue(g.state, project, issue, user, { confidential: input.confidential === true }, g.now)));
  },

  /** Mutations::Issues::SetLocked: the discussion locked or unlocked. */
  async issueSetLocked(g: Graph, input: Record<string, unknown>) {
    const { project, issue, user } = issueToChange(g, input);
    return issueChanged(g, input, issue, () => g.ctx.update(updateIssue(g.state, project, issue, user, { discussionLocked: input.locked === true }, g.now)));
  },

  /** Mutations::Issues::SetSubscription: for whoever may read the issue (Mutations::ResolvesSubscription). */
  async issueSetSubscription(g: Graph, input: Record<string, unknown>) {
    const user = signedIn(g);
    const project = projectOf(g, input);
    const iid = typeof input.iid === 'string' && /^\d+$/.test(input.iid) ? Number(input.iid) : NaN;
    const issue = Number.isInteger(iid) ? readableIssue(g.state, user, project, iid, g.now) : undefined;
    if (!issue) throw refused();
    const event = input.subscribedState === true ? 'subscribe' : 'unsubscribe';
    return issueChanged(g, input, issue, () => g.ctx.update((draft) => applySocialUpdates(draft, socialTarget('Issue', issue), user, { subscription_event: event }, g.now)));
  },

  /** Mutations::Notes::Create::Note, on an issue or a merge request. */
  async createNote(g: Graph, input: Record<string, unknown>) {
    const user = signedIn(g);
    const m = typeof input.noteableId === 'string' ? /^gid:\/\/gitlab\/(Issue|MergeRequest)\/(\d+)$/.exec(input.noteableId) : null;
    if (!m) throw refused();
    const id = Number(m[2]);
    let target: { project: Project; kind: 'issues' | 'merge_requests'; iid: number } | undefined;
    if (m[1] === 'Issue') {
      const issue = issueById(g.state, id);
      const project = issue && tget(g.state.projects, issue.projectId);
      if (issue && project) target = { project, kind: 'issues', iid: issue.iid };
    } else {
      for (const p of tvalues(g.state.projects)) {
        const mr: MergeRequest | undefined = plist(g.state.mergeRequests, p.id).find((x) => x.id === id);
        if (mr) {
          target = { project: p, kind: 'merge_requests', iid: mr.iid };
          break;
        }
      }
    }
    const project = target && g.project(tget(g.state.projects, target.project.id) ? fullPathOf(g, target.project) : '');
    if (!target || !project) throw refused();
    if (target.kind === 'merge_requests' && !readableMergeRequest(g.state, user, project, target.iid, g.now)) throw refused();
    let noteable;
    try {
      noteable = findNoteable(g.state, user, target.kind, { project }, target.iid, g.now);
    } catch {
      throw refused();
    }
    if (!canCreateNote(g.state, user, noteable, g.now)) throw refused();
    const body = typeof input.body === 'string' ? input.body : '';
    const { value, errors } = attempt(g, () => g.ctx.update(createNote(g.state, noteable, user, { body, internal: input.internal === true }, null, g.now)));
    const { NoteNode } = await import('./model.js');
    return { clientMutationId: input.clientMutationId ?? null, errors, note: value?.note ? new NoteNode(g, value.note) : null };
  },
};

/** The merge request an update names by project path and iid, when the caller may change it. */
function mergeRequestToChange(g: Graph, input: Record<string, unknown>): { project: Project; mr: MergeRequest; user: User } {
  const user = signedIn(g);
  const project = projectOf(g, input);
  const iid = typeof input.iid === 'string' && /^\d+$/.test(input.iid) ? Number(input.iid) : NaN;
  const mr = Number.isInteger(iid) ? readableMergeRequest(g.state, user, project, iid, g.now) : undefined;
  if (!mr || !canUpdateMergeRequest(g.state, user, project, mr, g.now)) throw refused();
  return { project, mr, user };
}

async function mergeRequestNode(g: Graph, mr: MergeRequest | null) {
  if (!mr) return null;
  const { MergeRequestNode } = await import('./model.js');
  return new MergeRequestNode(g, mr);
}

const currentMergeRequest = (g: Graph, mr: MergeRequest) => plist(g.state.mergeRequests, mr.projectId).find((m) => m.id === mr.id) ?? null;

/** The pipeline a global id names, when the caller may update its project's builds (`update_pipeline`). */
function pipelineToChange(g: Graph, input: Record<string, unknown>): { project: Project; pipeline: Pipeline; user: User } {
  const user = signedIn(g);
  const m = typeof input.id === 'string' ? /^gid:\/\/gitlab\/Ci::Pipeline\/(\d+)$/.exec(input.id) : null;
  if (!m) throw new GraphQLError(`${JSON.stringify(input.id)} is not a valid Global ID of type CiPipeline`, { extensions: { code: 'argumentError' } });
  const id = Number(m[1]);
  for (const p of tvalues(g.state.projects)) {
    for (const pipeline of projectPipelines(g.state, p.id)) {
      if (pipeline.id !== id) continue;
      const project = g.project(fullPathOf(g, p));
      if (!project || !canUpdateBuilds(g.state, user, project, g.now)) throw refused();
      return { project, pipeline, user };
    }
  }
  throw refused();
}

/** The note a global id names on an issue or merge request the caller may read, with its noteable; else GitLab's resource error. */
function noteToChange(g: Graph, input: Record<string, unknown>) {
  const user = signedIn(g);
  const m = typeof input.id === 'string' ? /^gid:\/\/gitlab\/(?:Note|DiscussionNote|DiffNote)\/(\d+)$/.exec(input.id) : null;
  if (!m) throw new GraphQLError(`${JSON.stringify(input.id)} is not a valid Global ID of type Note`, { extensions: { code: 'argumentError' } });
  const id = Number(m[1]);
  for (const p of tvalues(g.state.projects)) {
    const on: { kind: 'issues' | 'merge_requests'; iid: number; key: string }[] = [
      ...[...projectIssues(g.state, p.id)].map((i) => ({ kind: 'issues' as const, iid: i.iid, key: noteKey('Issue', i.id) })),
      ...plist(g.state.mergeRequests, p.id).map((mr) => ({ kind: 'merge_requests' as const, iid: mr.iid, key: noteKey('MergeRequest', mr.id) })),
    ];
    for (const o of on) {
      const note: Note | undefined = findNote(g.state, o.key, id);
      if (!note) continue;
      const project = g.project(fullPathOf(g, p));
      if (!project) throw refused();
      let noteable;
      try {
        noteable = findNoteable(g.state, user, o.kind, { project }, o.iid, g.now);
      } catch {
        throw refused();
      }
      if (!noteReadable(g.state, user, noteable, note, g.now) || !canAdminNote(g.state, user, noteable, note, g.now)) throw refused();
      return { noteable, note, user };
    }
  }
  throw refused();
}

/** Mutations::MergeRequests::Accept's words for why a merge did not happen. */
function acceptError(e: ApiError): string {
  if (e.status === 409) return 'The merge-head is not at the anticipated SHA';
  return 'This branch cannot be merged';
}

export const moreMutations = {
  /** Mutations::MergeRequests::Accept: merges now through the merge service REST uses. */
  async mergeRequestAccept(g: Graph, input: Record<string, unknown>) {
    const user = signedIn(g);
    const project = projectOf(g, input);
    const iid = typeof input.iid === 'string' && /^\d+$/.test(input.iid) ? Number(input.iid) : NaN;
    const found = Number.isInteger(iid) ? readableMergeRequest(g.state, user, project, iid, g.now) : undefined;
    if (!found) throw refused();
    const repo = objectsOf(g.ctx, project);
    const sha = typeof input.sha === 'string' ? input.sha : undefined;
    const reply = (errors: string[], mr: MergeRequest | null) => mergeRequestNode(g, mr).then((mergeRequest) => ({ clientMutationId: input.clientMutationId ?? null, errors, mergeRequest }));
    try {
      const mr = await checkedMergeRequest(g.state, repo, found);
      mergeWay(g.state, project, mr, user, false, sha, g.now);
      const recipe = await acceptMergeRequest(g.state, repo, project, mr, user, {
        webBase: g.ctx.webBase, sha, squash: input.squash === true, ...(typeof input.commitMessage === 'string' ? { mergeCommitMessage: input.commitMessage } : {}),
        ...(typeof input.shouldRemoveSourceBranch === 'boolean' ? { removeSourceBranch: input.shouldRemoveSourceBranch } : {}),
      }, g.now);
      return reply([], g.ctx.update(recipe));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.status === 401 || e.status === 403 || e.status === 404) throw refused();
      return reply([acceptError(e)], currentMergeRequest(g, found));
    }
  },

  /** Mutations::MergeRequests::Create (MergeRequests::CreateService). */
  async mergeRequestCreate(g: Graph, input: Record<string, unknown>) {
    const user = signedIn(g);
    const project = projectOf(g, input);
    if (!canCreateMergeRequest(g.state, user, project, g.now)) throw refused();
    const fields = {
      title: String(input.title), sourceBranch: String(input.sourceBranch), targetBranch: String(input.targetBranch),
      ...(typeof input.description === 'string' ? { description: input.description } : {}),
      ...(Array.isArray(input.labels) ? { labels: input.labels.filter((l): l is string => typeof l === 'string') } : {}),
      ...(typeof input.removeSourceBranch === 'boolean' ? { removeSourceBranch: input.removeSourceBranch } : {}),
    };
    let change;
    try {
      change = await createMergeRequest(g.state, objectsOf(g.ctx, project), project, user, fields, g.now);
    } catch (e) {
      if (e instanceof ApiError && e.status !== 404 && e.status !== 403) return { clientMutationId: input.clientMutationId ?? null, errors: messagesOf(e), mergeRequest: null };
      throw e;
    }
    const { value, errors } = attempt(g, () => g.ctx.update(change));
    return { clientMutationId: input.clientMutationId ?? null, errors, mergeRequest: await mergeRequestNode(g, value) };
  },

  /** Mutations::Notes::Update::Note (Notes::UpdateService). */
  async updateNote(g: Graph, input: Record<string, unknown>) {
    const { noteable, note, user } = noteToChange(g, input);
    const body = typeof input.body === 'string' ? input.body : undefined;
    const { value, errors } = attempt(g, () => g.ctx.update(updateNoteBody(g.state, noteable, note, user, { body }, null, g.now)));
    const { NoteNode } = await import('./model.js');
    const saved = value?.note ?? findNote(g.state, noteable.key, note.id) ?? null;
    return { clientMutationId: input.clientMutationId ?? null, errors, note: saved ? new NoteNode(g, saved) : null };
  },

  /** Mutations::Notes::Destroy (Notes::DestroyService). */
  destroyNote(g: Graph, input: Record<string, unknown>) {
    const { noteable, note } = noteToChange(g, input);
    g.ctx.update(destroyNote(noteable, note));
    return { clientMutationId: input.clientMutationId ?? null, errors: [], note: null };
  },

  /** Mutations::Ci::Pipeline::Retry (Ci::RetryPipelineService). */
  async pipelineRetry(g: Graph, input: Record<string, unknown>) {
    const { project, pipeline, user } = pipelineToChange(g, input);
    const { errors } = attempt(g, () => g.ctx.update(retryPipeline(pipeline, user.id, g.now)));
    const { PipelineNode } = await import('./ci-nodes.js');
    const now = [...projectPipelines(g.state, project.id)].find((x) => x.id === pipeline.id);
    return { clientMutationId: input.clientMutationId ?? null, errors, pipeline: now ? new PipelineNode(g, now, project) : null };
  },

  /** Mutations::Ci::Pipeline::Cancel (Ci::Pipeline#cancel_running). */
  pipelineCancel(g: Graph, input: Record<string, unknown>) {
    const { pipeline } = pipelineToChange(g, input);
    const { errors } = attempt(g, () => g.ctx.update(cancelPipeline(pipeline, g.now)));
    return { clientMutationId: input.clientMutationId ?? null, errors };
  },

  /** Mutations::AwardEmojis::Add, on an issue or a merge request the caller may read. */
  async awardEmojiAdd(g: Graph, input: Record<string, unknown>) {
    const user = signedIn(g);
    const m = typeof input.awardableId === 'string' ? /^gid:\/\/gitlab\/(Issue|MergeRequest)\/(\d+)$/.exec(input.awardableId) : null;
    if (!m) throw refused();
    const id = Number(m[2]);
    let found: { type: 'Issue' | 'MergeRequest'; id: number; projectId: number } | undefined;
    if (m[1] === 'Issue') {
      const issue = issueById(g.state, id);
      const project = issue && tget(g.state.projects, issue.projectId);
      if (issue && project && g.project(fullPathOf(g, project)) && readableIssue(g.state, user, project, issue.iid, g.now)) found = { type: 'Issue', id, projectId: project.id };
    } else {
      for (const p of tvalues(g.state.projects)) {
        const mr = plist(g.state.mergeRequests, p.id).find((x) => x.id === id);
        if (!mr) continue;
        if (g.project(fullPathOf(g, p)) && readableMergeRequest(g.state, user, p, mr.iid, g.now)) found = { type: 'MergeRequest', id, projectId: p.id };
        break;
      }
    }
    if (!found) throw refused();
    const name = typeof input.name === 'string' ? input.name : '';
    const change = awardEmoji(g.state, found, user, name, g.now);
    if (typeof change !== 'function') return { clientMutationId: input.clientMutationId ?? null, errors: change, awardEmoji: null };
    const award = g.ctx.update(change);
    const { UserNode } = await import('./model.js');
    return {
      clientMutationId: input.clientMutationId ?? null,
      errors: [],
      awardEmoji: { name: award.name, user: new UserNode(g, user) },
    };
  },

  /** Mutations::Todos::MarkDone: the caller's own to-do. */
  todoMarkDone(g: Graph, input: Record<string, unknown>) {
    const user = signedIn(g);
    const m = typeof input.id === 'string' ? /^gid:\/\/gitlab\/Todo\/(\d+)$/.exec(input.id) : null;
    const todo = m ? findTodo(g.state, user.id, Number(m[1])) : undefined;
    if (!todo) throw refused();
    const done = g.ctx.update(markTodoDone(todo, g.now));
    return { clientMutationId: input.clientMutationId ?? null, errors: [], todo: { id: `gid://gitlab/Todo/${done.id}`, state: done.state, action: done.actionName, createdAt: new Date(done.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z') } };
  },

  /** Mutations::MergeRequests::SetDraft: the title's `Draft: ` prefix, through UpdateService. */
  async mergeRequestSetDraft(g: Graph, input: Record<string, unknown>) {
    const { project, mr, user } = mergeRequestToChange(g, input);
    const plainTitle = draftlessTitle(mr.title);
    const title = input.draft === true ? (mr.draft ? mr.title : `Draft: ${plainTitle}`) : plainTitle;
    const { value, errors } = attempt(g, () => g.ctx.update(editMergeRequest(project, mr, user, { title }, g.now)));
    return { clientMutationId: input.clientMutationId ?? null, errors, mergeRequest: await mergeRequestNode(g, value ?? currentMergeRequest(g, mr)) };
  },

  /** Mutations::MergeRequests::SetLabels: replace, append or remove, with the project's labels. */
  async mergeRequestSetLabels(g: Graph, input: Record<string, unknown>) {
    const { project, mr, user } = mergeRequestToChange(g, input);
    const ids = labelIds(g, project, input.labelIds) ?? [];
    const mode = input.operationMode ?? 'REPLACE';
    const next = mode === 'APPEND' ? [...new Set([...mr.labelIds, ...ids])] : mode === 'REMOVE' ? mr.labelIds.filter((id) => !ids.includes(id)) : [...new Set(ids)];
    const { value, errors } = attempt(g, () => g.ctx.update(editMergeRequest(project, mr, user, { labelIds: next }, g.now)));
    return { clientMutationId: input.clientMutationId ?? null, errors, mergeRequest: await mergeRequestNode(g, value ?? currentMergeRequest(g, mr)) };
  },
};

function fullPathOf(g: Graph, p: Project): string {
  const ns = tget(g.state.namespaces, p.namespaceId);
  return ns ? `${ns.fullPath}/${p.path}` : p.path;
}
