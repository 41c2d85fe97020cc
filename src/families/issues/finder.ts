// IssuesFinder over the world (app/finders/issues_finder.rb, issuable_finder.rb and its
// filters): the caller's view of each project's issues, the list filters with GitLab's meaning,
// and the order. Each project's matches start from the smallest index set the filters name.
import { canReadProject, canUseFeature, isWithin, projectAccess, today } from '../../policy/access.js';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { ownMilestones, type Milestone } from '../milestones/index.js';
import { countAwards, issueMilestone, milestoneOwners, reacted } from '../issuables/index.js';
import type { State } from '../world.js';
import { labelById, projectLabelsTitled } from '../labels/index.js';
import { iterationById, iterationState } from '../epics/index.js';
import type { Issue, IssueType } from './records.js';
import { bget, bsize, bvalues, facetSet, issueByIid, projectIssues, projectsWithIssues, type Blocked } from './store.js';

export type ListKind = 'all' | 'group' | 'project';

export interface NotFilters {
  labels?: string[];
  milestone?: string;
  milestone_id?: string;
  iids?: number[];
  author_id?: number;
  author_username?: string;
  assignee_id?: string;
  assignee_username?: string[];
  my_reaction_emoji?: string;
  search?: string;
  in?: string;
  weight?: string;
  iteration_id?: string;
  iteration_title?: string;
  epic_id?: string;
}

export interface IssueFilters {
  scope: 'created_by_me' | 'assigned_to_me' | 'all';
  state: 'opened' | 'closed' | 'all';
  labels?: string[];
  milestone?: string;
  milestone_id?: string;
  iids?: number[];
  search?: string;
  in?: string;
  created_after?: number;
  created_before?: number;
  updated_after?: number;
  updated_before?: number;
  author_id?: number;
  author_username?: string;
  assignee_id?: string;
  assignee_username?: string[];
  confidential?: boolean;
  my_reaction_emoji?: string;
  due_date?: string;
  issue_type?: IssueType;
  non_archived?: boolean;
  not?: NotFilters;
  /** Higher tiers. */
  weight?: string;
  epic_id?: string;
  iteration_id?: string;
  iteration_title?: string;
  health_status?: string;
  order_by: string;
  sort: 'asc' | 'desc';
}

/** The `not[...]` keys each list reads (the others are dropped, as Grape drops undeclared keys). */
export const NOT_KEYS: Record<ListKind, readonly (keyof NotFilters)[]> = {
  all: ['assignee_id', 'assignee_username', 'author_id', 'author_username', 'iids', 'labels', 'milestone', 'milestone_id', 'my_reaction_emoji', 'weight', 'iteration_id', 'iteration_title', 'epic_id'],
  group: ['labels', 'milestone', 'author_id', 'author_username', 'assignee_id', 'assignee_username', 'my_reaction_emoji', 'search', 'in'],
  project: ['assignee_id', 'assignee_username', 'author_id', 'author_username', 'iids', 'labels', 'milestone', 'milestone_id', 'my_reaction_emoji', 'search', 'in', 'weight', 'iteration_id', 'iteration_title', 'epic_id'],
};

/** ProjectPolicy `read_issue`: readers of the project with the issues feature. */
export function canReadIssues(state: State, user: User | null, project: Project, now: number): boolean {
  return canUseFeature(state, user, project, 'issues', now);
}

/** `read_confidential_issues` on the project: Planner and above, and administrators. */
export function seesConfidential(state: State, user: User | null, project: Project, now: number): boolean {
  return !!user && (user.admin || projectAccess(state, user, project, now) >= ACCESS.planner);
}

/** Issue#readable_by?: confidential ones for their author, assignees and Planners up; banned authors' for admins. */
export function issueVisible(state: State, user: User | null, issue: Issue, seesAll: boolean): boolean {
  if (!user?.admin) {
    const author = tget(state.users, issue.authorId);
    if (author?.state === 'banned') return false;
  }
  if (!issue.confidential || seesAll) return true;
  return !!user && (issue.authorId === user.id || issue.assigneeIds.includes(user.id));
}

/** The project's issue with this iid, when the caller may read it. */
export function readableIssue(state: State, user: User | null, project: Project, iid: number, now: number): Issue | undefined {
  if (!canReadIssues(state, user, project, now)) return undefined;
  const issue = issueByIid(state, project.id, iid);
  return issue && issueVisible(state, user, issue, seesConfidential(state, user, project, now)) ? issue : undefined;
}

const isNone = (v: string) => ['none', 'no label', 'no+label'].includes(v.toLowerCase());
const isAny = (v: string) => v.toLowerCase() === 'any';

/** Per project: ids of milestones by title, of the Upcoming ones and of the Started ones. */
interface MilestoneFacts {
  byTitle: (title: string) => Set<number>;
  upcoming: Set<number>;
  started: Set<number>;
  notUpcoming: Set<number>;
  notStarted: Set<number>;
}

function milestoneFacts(state: State, project: Project, now: number): MilestoneFacts {
  const t = today(now);
  const all: Milestone[] = [];
  const upcoming = new Set<number>();
  for (const o of milestoneOwners(state, project)) {
    const list = ownMilestones(state, o);
    all.push(...list);
    // One per project or group: the active milestone due soonest after today.
    let best: Milestone | undefined;
    for (const m of list) if (m.state === 'active' && m.dueDate !== null && m.dueDate > t && (!best || m.dueDate < best.dueDate! || (m.dueDate === best.dueDate && m.id < best.id))) best = m;
    if (best) upcoming.add(best.id);
  }
  const started = new Set(all.filter((m) => m.state === 'active' && m.startDate !== null && m.startDate <= t).map((m) => m.id));
  const notUpcoming = new Set(all.filter((m) => m.state === 'active' && m.dueDate !== null && m.dueDate <= t).map((m) => m.id));
  const notStarted = new Set(all.filter((m) => m.state === 'active' && m.startDate !== null && m.startDate > t).map((m) => m.id));
  return { byTitle: (title) => new Set(all.filter((m) => m.title === title).map((m) => m.id)), upcoming, started, notUpcoming, notStarted };
}

function milestoneTitleMatch(f: MilestoneFacts, title: string, id: number | null): boolean {
  const lower = title.toLowerCase();
  if (lower === 'none' || lower === 'no milestone') return id === null;
  if (lower === 'any' || lower === 'any milestone') return id !== null;
  // Milestone::Upcoming.name and Milestone::Started.name: the legacy titles of the wildcards.
  if (lower === '#upcoming') return id !== null && f.upcoming.has(id);
  if (lower === '#started') return id !== null && f.started.has(id);
  return id !== null && f.byTitle(title).has(id);
}

function milestoneWildcardMatch(f: MilestoneFacts, value: string, id: number | null, negated: boolean): boolean {
  const v = value.toLowerCase();
  if (v === 'none') return negated ? id !== null : id === null;
  if (v === 'any') return negated ? id === null : id !== null;
  if (id === null) return false;
  if (v === 'upcoming') return negated ? f.notUpcoming.has(id) : f.upcoming.has(id);
  if (v === 'started') return negated ? f.notStarted.has(id) : f.started.has(id);
  return true;
}

/** Date arithmetic on `YYYY-MM-DD`. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
function endOfMonth(date: string, monthsAhead: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + monthsAhead + 1, 0)).toISOString().slice(0, 10);
}

/** The `due_date` window as a test of an issue's due date, from the emulator clock's today. */
export function dueDateTest(value: string, now: number): ((due: string | null) => boolean) | null {
  const t = today(now);
  switch (value) {
    case '':
      return null;
    case '0':
      return (d) => d === null;
    case 'any':
      return (d) => d !== null;
    case 'overdue':
      return (d) => d !== null && d < t;
    case 'today':
      return (d) => d === t;
    case 'tomorrow':
      return (d) => d === addDays(t, 1);
    case 'week': {
      const dow = (new Date(`${t}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
      const start = addDays(t, -dow);
      const end = addDays(start, 6);
      return (d) => d !== null && d >= start && d <= end;
    }
    case 'month': {
      const start = `${t.slice(0, 7)}-01`;
      const end = endOfMonth(t, 0);
      return (d) => d !== null && d >= start && d <= end;
    }
    case 'next_month_and_previous_two_weeks': {
      const start = addDays(t, -14);
      const end = endOfMonth(t, 1);
      return (d) => d !== null && d >= start && d <= end;
    }
    default:
      return null;
  }
}

/** `search` with `in`: case-insensitive, every word found in one of the chosen fields. */
export function searchMatch(issue: Issue, query: string, inFields: string | undefined): boolean {
  const fields = (inFields ?? '').split(',').map((s) => s.trim()).filter((s) => s === 'title' || s === 'description');
  const chosen = fields.length === 0 ? ['title', 'description'] : fields;
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const texts = chosen.map((f) => (f === 'title' ? issue.title : issue.description).toLowerCase());
  return words.every((w) => texts.some((t) => t.includes(w)));
}

function userIdByName(state: State, username: string): number | undefined {
  return tget(state.usernames, username.toLowerCase());
}

interface Caller {
  user: User | null;
  now: number;
}

/** Everything the per-issue test needs for one project, computed once per project. */
interface ProjectPlan {
  /** The smallest index sets to start from (intersected), or null to walk every issue. */
  start: Blocked<number>[] | null;
  test: (issue: Issue) => boolean;
}

function planFor(state: State, project: Project, f: IssueFilters, kind: ListKind, c: Caller): ProjectPlan | null {
  const { user, now } = c;
  const sets: Blocked<number>[][] = []; // each entry: a union of sets; an issue must be in one of each
  const tests: ((i: Issue) => boolean)[] = [];
  const seesAll = seesConfidential(state, user, project, now);
  // Filtering by `assignee_id=<me>` skips the confidentiality check in GitLab; those issues are
  // the caller's to see anyway (an assignee sees a confidential issue), so one rule serves both.
  tests.push((i) => issueVisible(state, user, i, seesAll));

  // scope
  if (f.scope !== 'all') {
    if (!user) return null;
    if (f.scope === 'created_by_me') {
      sets.push([facetSet(state, project.id, `u:${user.id}`)]);
    } else sets.push([facetSet(state, project.id, `a:${user.id}`)]);
  }
  if (f.state !== 'all') sets.push([facetSet(state, project.id, `s:${f.state}`)]);

  // labels: all of them; None / Any; an unknown one matches nothing
  if (f.labels && f.labels.length) {
    const names = f.labels.map((l) => l.trim()).filter((l) => l !== '');
    if (names.some(isNone)) sets.push([facetSet(state, project.id, 'l:none')]);
    else if (names.some(isAny)) tests.push((i) => i.labelIds.length > 0);
    else {
      for (const name of names) {
        const ids = projectLabelsTitled(state, project, name).map((l) => l.id);
        if (ids.length === 0) return null;
        sets.push(ids.map((id) => facetSet(state, project.id, `l:${id}`)));
      }
    }
  }

  let facts: MilestoneFacts | undefined;
  const mf = () => (facts ??= milestoneFacts(state, project, now));
  if (f.milestone !== undefined && f.milestone !== '') {
    const lower = f.milestone.toLowerCase();
    if (lower === 'none' || lower === 'no milestone') sets.push([facetSet(state, project.id, 'm:none')]);
    else if (!['any', 'any milestone', '#upcoming', '#started'].includes(lower)) {
      const ids = [...mf().byTitle(f.milestone)];
      if (ids.length === 0) return null;
      sets.push(ids.map((id) => facetSet(state, project.id, `m:${id}`)));
    } else {
      const title = f.milestone;
      tests.push((i) => milestoneTitleMatch(mf(), title, i.milestoneId));
    }
  }
  if (f.milestone_id !== undefined) {
    const v = f.milestone_id;
    if (v.toLowerCase() === 'none') sets.push([facetSet(state, project.id, 'm:none')]);
    else tests.push((i) => milestoneWildcardMatch(mf(), v, i.milestoneId, false));
  }
  if (f.iids && f.iids.length) {
    const iids = new Set(f.iids);
    tests.push((i) => iids.has(i.iid));
  }
  if (f.search) {
    const q = f.search;
    tests.push((i) => searchMatch(i, q, f.in));
  }
  if (f.created_after !== undefined) tests.push((i) => i.createdAt >= f.created_after!);
  if (f.created_before !== undefined) tests.push((i) => i.createdAt <= f.created_before!);
  if (f.updated_after !== undefined) tests.push((i) => i.updatedAt >= f.updated_after!);
  if (f.updated_before !== undefined) tests.push((i) => i.updatedAt <= f.updated_before!);

  // author
  if (f.author_id !== undefined) sets.push([facetSet(state, project.id, `u:${f.author_id}`)]);
  if (f.author_username !== undefined) {
    const id = userIdByName(state, f.author_username);
    if (id === undefined) return null;
    sets.push([facetSet(state, project.id, `u:${id}`)]);
  }
  // assignee
  if (f.assignee_id !== undefined) {
    const v = f.assignee_id;
    if (isNone(v)) sets.push([facetSet(state, project.id, 'a:none')]);
    else if (isAny(v)) tests.push((i) => i.assigneeIds.length > 0);
    else sets.push([facetSet(state, project.id, `a:${v}`)]);
  }
  if (f.assignee_username && f.assignee_username.length) {
    for (const name of f.assignee_username) {
      const id = userIdByName(state, name);
      if (id === undefined) return null;
      sets.push([facetSet(state, project.id, `a:${id}`)]);
    }
  }
  if (f.confidential !== undefined) sets.push([facetSet(state, project.id, `c:${f.confidential ? 1 : 0}`)]);
  if (f.my_reaction_emoji !== undefined && f.my_reaction_emoji !== '' && user) {
    const v = f.my_reaction_emoji;
    if (isNone(v)) tests.push((i) => !reacted(state, { type: 'Issue', id: i.id }, user.id, null));
    else if (isAny(v)) tests.push((i) => reacted(state, { type: 'Issue', id: i.id }, user.id, null));
    else tests.push((i) => reacted(state, { type: 'Issue', id: i.id }, user.id, v));
  }
  if (f.due_date !== undefined) {
    const t = dueDateTest(f.due_date, now);
    if (t) tests.push((i) => t(i.dueDate));
  }
  const type = f.issue_type;
  if (type) tests.push((i) => i.issueType === type);

  // The higher tiers' filters (CE does not declare them: they are ignored on the free tier).
  const tier = state.instance.tier;
  if (tier !== 'free') {
    if (f.weight !== undefined) tests.push(wildcardTest(f.weight, (i) => i.weight));
    if (f.epic_id !== undefined) tests.push(wildcardTest(f.epic_id, (i) => i.epicId));
    if (f.iteration_id !== undefined) tests.push(iterationTest(state, f.iteration_id, now));
    if (f.iteration_title !== undefined) tests.push(iterationTitleTest(state, f.iteration_title));
    if (tier === 'ultimate' && kind === 'all' && f.health_status !== undefined) tests.push(wildcardTest(f.health_status, (i) => i.healthStatus));
  }

  // not[...]
  const n = f.not ?? {};
  const allowed = new Set<string>(NOT_KEYS[kind]);
  const has = (k: keyof NotFilters) => allowed.has(k) && n[k] !== undefined;
  if (has('labels')) {
    const excluded = new Set<number>();
    for (const name of n.labels!) for (const l of projectLabelsTitled(state, project, name.trim())) excluded.add(l.id);
    tests.push((i) => !i.labelIds.some((id) => excluded.has(id)));
  }
  if (has('milestone') && n.milestone !== '') {
    const title = n.milestone!;
    tests.push((i) => !milestoneTitleMatch(mf(), title, i.milestoneId));
  }
  if (has('milestone_id')) {
    const v = n.milestone_id!;
    tests.push((i) => milestoneWildcardMatch(mf(), v, i.milestoneId, true));
  }
  if (has('iids') && n.iids!.length) {
    const iids = new Set(n.iids);
    tests.push((i) => !iids.has(i.iid));
  }
  if (has('author_id')) tests.push((i) => i.authorId !== n.author_id);
  if (has('author_username')) {
    const id = userIdByName(state, n.author_username!);
    if (id !== undefined) tests.push((i) => i.authorId !== id);
  }
  if (has('assignee_id')) {
    const v = n.assignee_id!;
    if (isNone(v)) tests.push((i) => i.assigneeIds.length > 0);
    else if (isAny(v)) tests.push((i) => i.assigneeIds.length === 0);
    else tests.push((i) => !i.assigneeIds.includes(Number(v)));
  }
  if (has('assignee_username')) {
    const ids = n.assignee_username!.map((u) => userIdByName(state, u)).filter((x): x is number => x !== undefined);
    tests.push((i) => !ids.some((id) => i.assigneeIds.includes(id)));
  }
  if (has('my_reaction_emoji') && user) {
    const v = n.my_reaction_emoji!;
    if (isNone(v)) tests.push((i) => reacted(state, { type: 'Issue', id: i.id }, user.id, null));
    else if (isAny(v)) tests.push((i) => !reacted(state, { type: 'Issue', id: i.id }, user.id, null));
    else tests.push((i) => !reacted(state, { type: 'Issue', id: i.id }, user.id, v));
  }
  if (has('search') && n.search !== '') {
    const q = n.search!;
    const inFields = allowed.has('in') ? n.in : undefined;
    tests.push((i) => !searchMatch(i, q, inFields));
  }

  if (tier !== 'free') {
    if (has('weight')) { const t = wildcardTest(n.weight!, (i) => i.weight); tests.push((i) => !t(i)); }
    if (has('epic_id')) { const t = wildcardTest(n.epic_id!, (i) => i.epicId); tests.push((i) => !t(i)); }
    if (has('iteration_id')) { const t = iterationTest(state, n.iteration_id!, now); tests.push((i) => !t(i)); }
    if (has('iteration_title')) { const t = iterationTitleTest(state, n.iteration_title!); tests.push((i) => !t(i)); }
  }

  const start = sets.length ? sets.sort((a, b) => unionSize(a) - unionSize(b))[0]! : null;
  const rest = sets.length ? sets.slice(1) : [];
  return {
    start,
    test: (i) => rest.every((u) => u.some((s) => bget(s, i.iid) !== undefined)) && tests.every((t) => t(i)),
  };
}

/** A filter of a number or a name, with `None` (unset) and `Any` (set). */
function wildcardTest(value: string, get: (i: Issue) => number | string | null): (i: Issue) => boolean {
  const v = value.toLowerCase();
  if (v === 'none') return (i) => get(i) === null;
  if (v === 'any') return (i) => get(i) !== null;
  return (i) => get(i) !== null && String(get(i)) === value;
}

function iterationTest(state: State, value: string, now: number): (i: Issue) => boolean {
  if (value.toLowerCase() === 'current') {
    return (i) => {
      const it = i.iterationId === null ? undefined : iterationById(state, i.iterationId);
      return !!it && iterationState(it, now) === 2;
    };
  }
  return wildcardTest(value, (i) => i.iterationId);
}

function iterationTitleTest(state: State, title: string): (i: Issue) => boolean {
  return (i) => i.iterationId !== null && iterationById(state, i.iterationId)?.title === title;
}

const unionSize = (u: Blocked<number>[]) => u.reduce((n, s) => n + bsize(s), 0);

/** The issues of one project that pass the filters, as the caller sees them (unordered). */
function projectMatches(state: State, project: Project, f: IssueFilters, kind: ListKind, c: Caller, out: Issue[]): void {
  const plan = planFor(state, project, f, kind, c);
  if (!plan) return;
  if (!tget(state.issues, project.id)) return;
  if (plan.start) {
    const seen = plan.start.length > 1 ? new Set<number>() : null;
    for (const set of plan.start) {
      for (const iid of bvalues(set)) {
        if (seen) {
          if (seen.has(iid)) continue;
          seen.add(iid);
        }
        const issue = issueByIid(state, project.id, iid);
        if (issue && plan.test(issue)) out.push(issue);
      }
    }
  } else {
    for (const issue of projectIssues(state, project.id)) if (plan.test(issue)) out.push(issue);
  }
}

/** Projects whose issues a list covers, as the caller may read them. */
function projectsOf(state: State, kind: ListKind, c: Caller, f: IssueFilters, scope?: { project?: Project; group?: Namespace }): Project[] {
  if (kind === 'project') return canReadIssues(state, c.user, scope!.project!, c.now) ? [scope!.project!] : [];
  const out: Project[] = [];
  for (const id of projectsWithIssues(state)) {
    const p = tget(state.projects, id);
    if (!p || p.pendingDelete) continue;
    if (kind === 'group' && !isWithin(state, p.namespaceId, scope!.group!.id)) continue;
    if (f.non_archived !== false && p.archived) continue;
    if (!canReadProject(state, c.user, p, c.now) || !canReadIssues(state, c.user, p, c.now)) continue;
    out.push(p);
  }
  return out;
}

/** IssuesFinder#execute: every match of the filters in the list's projects, in the asked order. */
export function findIssues(state: State, kind: ListKind, f: IssueFilters, c: Caller, scope?: { project?: Project; group?: Namespace }): Issue[] {
  const out: Issue[] = [];
  for (const p of projectsOf(state, kind, c, f, scope)) projectMatches(state, p, f, kind, c, out);
  return sortIssues(state, out, f.order_by, f.sort);
}

/** Counts of the matches by state, as issues_statistics answers (the `state` filter left out). */
export function issueCounts(state: State, kind: ListKind, f: IssueFilters, c: Caller, scope?: { project?: Project; group?: Namespace }) {
  const all: Issue[] = [];
  for (const p of projectsOf(state, kind, c, f, scope)) projectMatches(state, p, { ...f, state: 'all' }, kind, c, all);
  const closed = all.filter((i) => i.state === 'closed').length;
  return { all: all.length, closed, opened: all.length - closed };
}

export type Key = number | string | null;

/** Ascending with nulls last, whatever the direction. */
function cmp(a: Key, b: Key, dir: 1 | -1): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return (a < b ? -1 : 1) * dir;
}

/** Where an issue stands in an order: its sort key and its id. */
export interface Position {
  k: Key;
  id: number;
}

/** The order: the column in the asked direction (nulls last for dates), then id descending (ascending for relative_position). */
export function issueOrder(state: State, orderBy: string, sort: 'asc' | 'desc') {
  const dir = sort === 'asc' ? 1 : -1;
  const key = sortKey(state, orderBy);
  const tie = orderBy === 'relative_position' ? 1 : -1;
  const compare = (a: Position, b: Position) => cmp(a.k, b.k, dir) || tie * (a.id - b.id);
  return { key, compare, position: (i: Issue): Position => ({ k: key(i), id: i.id }) };
}

export function sortIssues(state: State, list: Issue[], orderBy: string, sort: 'asc' | 'desc'): Issue[] {
  const order = issueOrder(state, orderBy, sort);
  const keyed = list.map((i) => ({ i, p: order.position(i) }));
  keyed.sort((a, b) => order.compare(a.p, b.p));
  return keyed.map((x) => x.i);
}

function sortKey(state: State, orderBy: string): (i: Issue) => Key {
  switch (orderBy) {
    case 'updated_at':
      return (i) => i.updatedAt;
    case 'due_date':
      return (i) => i.dueDate;
    case 'title':
      return (i) => i.title.toLowerCase();
    case 'relative_position':
      return (i) => i.relativePosition;
    case 'popularity':
      return (i) => upvotes(state, i.id);
    case 'weight':
      return (i) => i.weight;
    case 'milestone_due':
      return (i) => {
        const p = tget(state.projects, i.projectId);
        return p ? issueMilestone(state, p, i.milestoneId)?.dueDate ?? null : null;
      };
    case 'label_priority':
    case 'priority':
      return (i) => {
        let best: number | null = null;
        for (const id of i.labelIds) {
          const pr = labelById(state, id)?.priority ?? null;
          if (pr !== null && (best === null || pr < best)) best = pr;
        }
        return best;
      };
    default:
      return (i) => i.createdAt;
  }
}

export function upvotes(state: State, issueId: number): number {
  return countAwards(state, { type: 'Issue', id: issueId }, 'thumbsup');
}
export function downvotes(state: State, issueId: number): number {
  return countAwards(state, { type: 'Issue', id: issueId }, 'thumbsdown');
}
