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
export function createLink(state: State, source: Issue, target: Issue, type: LinkType, now: number): (draft: Draft<State>) => IssueLink {
  if (source.id === target.id) throw messageError(404, 'No matching issue found. Make sure that you are adding a valid issue URL.');
  if (linksOf(state, source.id).some((l) => l.sourceId === target.id || l.targetId === target.id)) throw messageError(409, 'Issue(s) already assigned');
  const [from, to] = type === 'is_blocked_by' ? [target, source] : [source, target];
  return (draft) => {
    const link: IssueLink = { id: ids.next(draft as State, 'issue_link'), sourceId: from.id, targetId: to.id, linkType: type === 'relates_to' ? 'relates_to' : 'blocks', createdAt: now, updatedAt: now };
    bset(draft.issueLinks as Blocked<IssueLink>, link.id, link);
    pset(draft.issueLinkIds, from.id, link.id, link.id);
    pset(draft.issueLinkIds, to.id, link.id, link.id);
    return link;
  };
}

export function removeLink(link: IssueLink): (draft: Draft<State>) => void {
  return (draft) => {
    bdel(draft.issueLinks as Blocked<IssueLink>, link.id);
    pdel(draft.issueLinkIds, link.sourceId, link.id);
    pdel(draft.issueLinkIds, link.targetId, link.id);
  };
}

export const linkTimes = (l: IssueLink) => ({ link_created_at: iso(l.createdAt), link_updated_at: iso(l.updatedAt) });
