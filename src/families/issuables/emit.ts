// What a write of an issue or a merge request says on the event stream: `opened` for a new one;
// `closed`, `reopened` or `merged` when its state moves; `updated` with the fields that changed
// otherwise (what GitLab's update services and hooks report), none when only bookkeeping moved
// (`updated_at` when a note is added, a mergeability check). Within one change an issuable just
// opened is not also updated, and its updates gather into one event.
import type { Draft } from 'immer';
import { emit, type DomainEvent } from '../stream.js';
import type { State } from '../world.js';

interface Record {
  id: number;
  iid: number;
  projectId: number;
  state: string;
}

/** Fields whose change is no update of their own: state and its stamps (their own events), and bookkeeping. */
const QUIET = new Set(['updatedAt', 'state', 'closedAt', 'closedById', 'mergedAt', 'mergedById', 'mergeCommitSha', 'mergeStatus', 'baseSha', 'startSha', 'reviewerStates', 'reviewAuthorIds']);
/** GitLab's names for the fields whose change hooks report (`changes`); others are snake-cased. */
const NAMES: { readonly [k: string]: string } = { labelIds: 'labels', assigneeIds: 'assignees', reviewerIds: 'reviewers' };
const snake = (k: string) => NAMES[k] ?? k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function changed<T extends Record>(before: T, after: T): string[] {
  const out: string[] = [];
  for (const k of Object.keys(after) as (keyof T & string)[]) {
    if (QUIET.has(k)) continue;
    const a = before[k];
    const b = after[k];
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) out.push(snake(k));
  }
  return out;
}

export function emitIssuableChange(draft: Draft<State>, kind: 'issue' | 'merge_request', before: Record | null | undefined, after: Record): void {
  const subject = kind === 'issue' ? { projectId: after.projectId, issueId: after.id, iid: after.iid } : { projectId: after.projectId, mergeRequestId: after.id, iid: after.iid };
  const event = (action: string, extra: object = {}) => ({ kind: `${kind}.${action}`, ...subject, ...extra }) as DomainEvent;
  if (!before) return emit(draft, event('opened'));
  if (before.state !== after.state) {
    const action = after.state === 'merged' ? 'merged' : after.state === 'closed' ? 'closed' : after.state === 'opened' ? 'reopened' : null;
    if (action) emit(draft, event(action));
  }
  const changes = changed(before, after);
  if (changes.length === 0) return;
  const pending = draft.pendingEvents as DomainEvent[];
  const same = pending.find((e) => (e.kind === `${kind}.opened` || e.kind === `${kind}.updated`) && 'iid' in e && e.iid === after.iid && e.projectId === after.projectId);
  if (same?.kind === `${kind}.opened`) return;
  if (same && 'changes' in same) {
    for (const c of changes) if (!same.changes.includes(c)) same.changes.push(c);
    return;
  }
  emit(draft, event('updated', { changes }));
}
