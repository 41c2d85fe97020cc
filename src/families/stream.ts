// The event stream: what a change of the world says happened (an issue closed, a branch pushed,
// a member added). A service emits its events into the draft it changes, so they are committed
// with that change or not at all: a failed request, or a run that starts again on a newer world,
// leaves none. When a handler has succeeded, the registry stamps the request's events (id, time,
// actor), keeps them in the world's bounded log and hands them, in order, to the subscribers the
// families declare (`on: { push: ... }`), inside the same transaction. GitLab's events API reads
// the log; webhooks and pipelines subscribe.
import type { Draft } from 'immer';
import { emptyTable, tdel, tget, tset, type Table } from '../store/table.js';
import { sequences, type CoreState } from '../store/state.js';

/** A branch or tag that moved (GitLab's post-receive change: oldrev, newrev, ref). */
export interface PushChange {
  projectId: number;
  refType: 'branch' | 'tag';
  /** The branch's or tag's name, without `refs/heads/` or `refs/tags/`. */
  ref: string;
  /** The tip before; null for a new ref. */
  before: string | null;
  /** The tip after; null for a deleted ref. */
  after: string | null;
  /** Push options the push carried for the pipelines (a rebase's `skip_ci` is `ci.skip`). */
  pushOptions?: string[];
}

type IssueRef = { projectId: number; issueId: number; iid: number };
type MergeRequestRef = { projectId: number; mergeRequestId: number; iid: number };

type Owner = { projectId: number; groupId?: never } | { groupId: number; projectId?: never };

/**
 * The stream's vocabulary: each kind and what it carries. Ids, never copies of records: a
 * subscriber reads the record from the world it is handed.
 */
export interface DomainEvents {
  push: PushChange;
  'project.created': { projectId: number };
  'project.renamed': { projectId: number; oldFullPath: string };
  'project.destroyed': { projectId: number; fullPath: string; name: string };
  'group.created': { groupId: number };
  'group.renamed': { groupId: number; oldFullPath: string };
  'group.destroyed': { groupId: number; fullPath: string; name: string };
  'user.created': { userId: number };
  'user.renamed': { userId: number; oldUsername: string };
  'user.destroyed': { userId: number; username: string; name: string };
  /** A blocked user (User#blocked?: blocked, banned, pending approval) refused at a web sign-in whose credentials matched. */
  'user.failed_login': { userId: number };
  'member.added': { source: 'project' | 'group'; sourceId: number; userId: number; accessLevel: number; projectId?: number };
  'member.updated': { source: 'project' | 'group'; sourceId: number; userId: number; accessLevel: number; projectId?: number };
  'member.removed': { source: 'project' | 'group'; sourceId: number; userId: number; accessLevel: number; projectId?: number };
  /** A feature flag switched on or off (FeatureFlags::UpdateService, when `active` changed). */
  'feature_flag.toggled': { projectId: number; flagId: number };
  'key.created': { userId: number; keyId: number };
  'key.destroyed': { userId: number; keyId: number };
  'token.created': { tokenId: number; userId: number; tokenKind: string };
  /** A project or group access token found expiring within seven days by the daily run (once a token). */
  'token.expiring': { tokenId: number };
  'token.revoked': { tokenId: number; userId: number; tokenKind: string };
  'wiki_page.created': Owner & { metaId: number; slug: string; title: string; format: string };
  'wiki_page.updated': Owner & { metaId: number; slug: string; title: string; format: string };
  'wiki_page.deleted': Owner & { metaId: number; slug: string; title: string; format: string };
  'release.created': { projectId: number; tag: string };
  'release.updated': { projectId: number; tag: string };
  'release.deleted': { projectId: number; tag: string; name: string };
  'milestone.created': Owner & { milestoneId: number };
  'milestone.closed': Owner & { milestoneId: number };
  'milestone.reopened': Owner & { milestoneId: number };
  'milestone.destroyed': Owner & { milestoneId: number };
  'pipeline.status': { projectId: number; pipelineId: number; status: string; previous: string | null };
  'job.status': { projectId: number; jobId: number; pipelineId: number | null; status: string; previous: string | null };
  'issue.opened': IssueRef;
  /** The fields that changed, by GitLab's names (`title`, `labels`, `assignees`, `due_date`...). */
  'issue.updated': IssueRef & { changes: string[] };
  'issue.closed': IssueRef;
  'issue.reopened': IssueRef;
  'merge_request.opened': MergeRequestRef;
  'merge_request.updated': MergeRequestRef & { changes: string[] };
  'merge_request.approved': MergeRequestRef;
  'merge_request.unapproved': MergeRequestRef;
  'merge_request.merged': MergeRequestRef;
  'merge_request.closed': MergeRequestRef;
  'merge_request.reopened': MergeRequestRef;
  /** A comment (not a system note) on an issue, a merge request, a snippet, an epic or a commit. */
  'note.created': { projectId: number | null; noteId: number; noteableType: string; noteableId: number | string; noteableIid: number | null };
  /** An award emoji given or taken back (AwardEmoji's after_create/after_destroy), as it was; a note's award names the note's noteable. */
  /** A deployment that started (`running`) or finished (`success`, `failed`, `canceled`). */
  'deployment.status': { projectId: number; deploymentId: number; status: string };
  'award_emoji.added': AwardFacts;
  'award_emoji.removed': AwardFacts;
}

type AwardFacts = {
  projectId: number | null; awardId: number; name: string; userId: number; awardableType: string; awardableId: number; createdAt: number; updatedAt: number;
  noteable: { type: string; id: number } | null;
};

export type EventKind = keyof DomainEvents;

/** One event as a service emits it; `actorId` only where the actor is not the request's user. */
export type DomainEvent<K extends EventKind = EventKind> = { [P in K]: { kind: P; actorId?: number | null } & DomainEvents[P] }[K];

/** One event as the stream keeps it: numbered, timed and attributed when its request succeeded. */
export type StoredEvent<K extends EventKind = EventKind> = DomainEvent<K> & { id: number; at: number; actorId: number | null };

/** The stream's part of the world. */
export interface StreamSlice {
  /** What the change under way emitted and no subscriber has been handed yet; empty between requests. */
  pendingEvents: DomainEvent[];
  /** The last events, by id (oldest dropped past the log's limit); readers keep their own indexes (`forget.event`). */
  events: Table<StoredEvent>;
  /** Ids of events kept outside a request (timed work, a test handle) that no subscriber has been handed yet. */
  unsettled: number[];
}

export function emptyStream(): StreamSlice {
  return { pendingEvents: [], events: emptyTable(), unsettled: [] };
}

/** How many events the log keeps: the newest, as GitLab prunes old events (it keeps three years). */
export const EVENT_LOG_LIMIT = 20_000;

const ids = sequences(['event']);

type StreamDraft = Draft<StreamSlice & CoreState>;

/** The id of the last event the world's log has numbered (0 before any). */
export const lastEventId = (state: CoreState): number => ids.peek(state, 'event') - 1;

/** Says that something happened, as part of the change being made (on a draft). */
export function emit(draft: Draft<object>, event: DomainEvent): void {
  (draft as StreamDraft).pendingEvents.push(event as Draft<DomainEvent>);
}

/**
 * Takes the pending events out of the draft and keeps them in the log, numbered and attributed
 * (the request's user unless the event names its actor); returns them in order.
 */
export function commitEvents(draft: Draft<object>, actorId: number | null, at: number, dropped: (event: StoredEvent) => void = () => {}): StoredEvent[] {
  const d = draft as StreamDraft;
  const pending = d.pendingEvents;
  if (pending.length === 0) return [];
  d.pendingEvents = [];
  const out: StoredEvent[] = [];
  for (const e of pending) {
    const stored = { ...(e as DomainEvent), id: ids.next(d as CoreState, 'event'), at, actorId: e.actorId ?? actorId } as StoredEvent;
    tset(d.events, stored.id, stored);
    out.push(stored);
  }
  trim(d, dropped);
  return out;
}

/** Drops the oldest events past the limit: the log loses events only at its old end, so its ids run on. */
function trim(d: StreamDraft, dropped: (event: StoredEvent) => void): void {
  let oldest = ids.peek(d as CoreState, 'event') - d.events.size;
  while (d.events.size > EVENT_LOG_LIMIT) {
    const e = tget(d.events, oldest);
    if (e) {
      tdel(d.events, oldest);
      dropped(e as StoredEvent);
    }
    oldest++;
  }
}

/** Drops whatever is pending unseen: a seed's records are data, not things that happened. */
export function discardPending(draft: Draft<object>): void {
  (draft as StreamDraft).pendingEvents = [];
}
