// Issue links (lib/api/issue_links.rb, app/services/issue_links/*, lib/api/entities/related_issue.rb,
// issue_link.rb): `relates_to` on every tier, `blocks` and `is_blocked_by` at the higher tiers;
// `blocking_issues_count` counts the open issues an issue blocks.
import type { Draft } from 'immer';
import { messageError } from '../../core/errors.js';
import { iso } from '../../render/time.js';
import { pdel, pset, tget, tvalues } from '../../store/table.js';
import type { State } from '../world.js';
import type { Issue, IssueLink } from './records.js';
import { bdel, bget, bset, ids, issueById, type Blocked } from './store.js';
import { systemNote } from '../issuables/index.js';

export type LinkType = 'relates_to' | 'blocks' | 'is_blocked_by';

export function linksOf(state: State, issueId: number): IssueLink[] {
  const t = tget(state.issueLinkIds, issueId);
  if (!t) return [];
  const out: IssueLink[] = [];
  for (const id of tvalues(t)) {
    const l = bget(state.issueLinks, id);
    if (l) out.push(l);
  }
  return out.sort((a, b) => a.id - b.id);
}

export function linkById(state: State, id: number): IssueLink | undefined {
  return bget(state.issueLinks, id);
}

/** The other end of a link, and the type as seen from this issue. */
export function linkedFrom(link: IssueLink, issueId: number): { otherId: number; type: LinkType } {
  if (link.sourceId === issueId) return { otherId: link.targetId, type: link.linkType };
  return { otherId: link.sourceId, type: link.linkType === 'blocks' ? 'is_blocked_by' : 'relates_to' };
}

/** Issue#blocking_issues_count: the open issues this one blocks. */
export function blockingIssuesCount(state: State, issue: Issue): number {
  let n = 0;
  for (const l of linksOf(state, issue.id)) {
    if (l.linkType !== 'blocks' || l.sourceId !== issue.id) continue;
    if (issueById(state, l.targetId)?.state === 'opened') n++;
  }
  return n;
}

/** IssueLinks::CreateService: one link between two issues, whatever its direction. */
export function createLink(state: State, source: Issue, target: Issue, type: LinkType, now: number, userId?: number): (draft: Draft<State>) => IssueLink {
  if (source.id === target.id) throw messageError(404, 'No matching issue found. Make sure that you are adding a valid issue URL.');
  if (linksOf(state, source.id).some((l) => l.sourceId === target.id || l.targetId === target.id)) throw messageError(409, 'Issue(s) already assigned');
  const [from, to] = type === 'is_blocked_by' ? [target, source] : [source, target];
  return (draft) => {
    const link: IssueLink = { id: ids.next(draft as State, 'issue_link'), sourceId: from.id, targetId: to.id, linkType: type === 'relates_to' ? 'relates_to' : 'blocks', createdAt: now, updatedAt: now };
    bset(draft.issueLinks as Blocked<IssueLink>, link.id, link);
    pset(draft.issueLinkIds, from.id, link.id, link.id);
    pset(draft.issueLinkIds, to.id, link.id, link.id);
    if (userId !== undefined) {
      // SystemNoteService.relate_issuable, on both issues (EE words a blocking link its own way).
      const [a, b] = type === 'relates_to' ? ['related to', 'related to'] : ['blocking', 'blocked by'];
      systemNote(draft, 'Issue', from, userId, `marked this issue as ${a} ${issueReference(draft as State, from.projectId, to)}`, now);
      systemNote(draft, 'Issue', to, userId, `marked this issue as ${b} ${issueReference(draft as State, to.projectId, from)}`, now);
    }
    return link;
  };
}

export function removeLink(link: IssueLink, by?: { userId: number; now: number }): (draft: Draft<State>) => void {
  return (draft) => {
    if (by) {
      // SystemNoteService.unrelate_issuable, on both issues.
      const source = issueById(draft as State, link.sourceId);
      const target = issueById(draft as State, link.targetId);
      if (source && target) {
        systemNote(draft, 'Issue', source, by.userId, `removed the relation with ${issueReference(draft as State, source.projectId, target)}`, by.now);
        systemNote(draft, 'Issue', target, by.userId, `removed the relation with ${issueReference(draft as State, target.projectId, source)}`, by.now);
      }
    }
    bdel(draft.issueLinks as Blocked<IssueLink>, link.id);
    pdel(draft.issueLinkIds, link.sourceId, link.id);
    pdel(draft.issueLinkIds, link.targetId, link.id);
  };
}

/** Issue#to_reference(from): `#2` in the same project, `app#2` in the same namespace, else `group/app#2`. */
export function issueReference(state: State, fromProjectId: number, issue: Issue): string {
  if (issue.projectId === fromProjectId) return `#${issue.iid}`;
  const p = tget(state.projects, issue.projectId);
  const from = tget(state.projects, fromProjectId);
  if (!p) return `#${issue.iid}`;
  if (from && from.namespaceId === p.namespaceId) return `${p.path}#${issue.iid}`;
  return `${tget(state.namespaces, p.namespaceId)?.fullPath ?? ''}/${p.path}#${issue.iid}`;
}

export const linkTimes = (l: IssueLink) => ({ link_created_at: iso(l.createdAt), link_updated_at: iso(l.updatedAt) });
