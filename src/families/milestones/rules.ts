// Milestones of projects and groups (app/models/milestone.rb, app/models/concerns/timebox.rb,
// app/services/milestones/create_service.rb, app/finders/milestones_finder.rb). A milestone
// lives in its owner's record; `iid` counts per owner. Titles are unique across a project and
// its group (Milestone#uniqueness_of_title).
import { ancestry, canReadGroup, canUseFeature, hasGroupRole, hasProjectRole, isWithin, today } from '../../policy/access.js';
import { ACCESS, sequences, type Namespace, type Project, type User } from '../../store/state.js';
import { pget, plist, pset, tget, tvalues } from '../../store/table.js';
import type { State } from '../world.js';
import { emit } from '../stream.js';
import type { Milestone } from './records.js';

export const ids = sequences(['milestone', 'milestone_iid']);

/** Whose a milestone is: a project's or a group's. */
export type MilestoneOwner = { projectId: number; groupId?: undefined } | { groupId: number; projectId?: undefined };

export interface MilestoneInput {
  title: string;
  description?: string | null;
  dueDate?: string | null;
  startDate?: string | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Timebox validations: a title, not used by a milestone of the same project or group (`taken`
 * says, from the index of titles), dates of four-digit years, and a start before the due date
 * (Timebox#start_date_should_be_less_than_due_date: equal dates are refused too).
 */
export function validateMilestone(taken: (title: string) => boolean, title: string, startDate: string | null, dueDate: string | null): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (title.trim() === '') add('title', "can't be blank");
  else if (taken(title)) add('title', 'already being used for another group or project milestone.');
  for (const [key, value] of [['start_date', startDate], ['due_date', dueDate]] as const) {
    if (value !== null && (!DATE.test(value) || Number.isNaN(Date.parse(value)))) add(key, 'is invalid');
  }
  if (startDate && dueDate && !errors.start_date && !errors.due_date && dueDate <= startDate) add('due_date', 'must be greater than start date');
  return errors;
}

/** The milestones a project or a group owns. */
export function ownMilestones(state: State, owner: MilestoneOwner): Milestone[] {
  return owner.projectId !== undefined ? plist(state.projectMilestones, owner.projectId) : plist(state.groupMilestones, owner.groupId);
}

export function findMilestone(state: State, owner: MilestoneOwner, id: number): Milestone | undefined {
  return owner.projectId !== undefined ? pget(state.projectMilestones, owner.projectId, id) : pget(state.groupMilestones, owner.groupId, id);
}

/** Whether a milestone of any of these owners has the title: a look-up per owner, whatever their size. */
export function titleTaken(state: State, owners: readonly MilestoneOwner[], title: string): boolean {
  return owners.some((o) =>
    (o.projectId !== undefined ? pget(state.projectMilestoneTitles, o.projectId, title) : pget(state.groupMilestoneTitles, o.groupId, title)) !== undefined,
  );
}

/** A new active milestone, stored with its owner (and its title in the owner's index); returns it. */
export function createMilestone(draft: State, owner: MilestoneOwner, input: MilestoneInput, now: number): Milestone {
  const scope = owner.projectId !== undefined ? `p${owner.projectId}` : `g${owner.groupId}`;
  const milestone: Milestone = {
    id: ids.next(draft, 'milestone'),
    iid: ids.next(draft, 'milestone_iid', scope),
    projectId: owner.projectId ?? null,
    groupId: owner.groupId ?? null,
    title: input.title,
    description: input.description ?? '',
    state: 'active',
    createdAt: now,
    updatedAt: now,
    dueDate: input.dueDate ?? null,
    startDate: input.startDate ?? null,
  };
  if (owner.projectId !== undefined) {
    pset(draft.projectMilestones, owner.projectId, milestone.id, milestone);
    pset(draft.projectMilestoneTitles, owner.projectId, milestone.title, milestone.id);
  } else {
    pset(draft.groupMilestones, owner.groupId, milestone.id, milestone);
    pset(draft.groupMilestoneTitles, owner.groupId, milestone.title, milestone.id);
  }
  emit(draft, { kind: 'milestone.created', ...eventOwner(owner), milestoneId: milestone.id });
  return milestone;
}

/** A milestone event's owner. */
export const eventOwner = (o: MilestoneOwner) => (o.projectId !== undefined ? { projectId: o.projectId } : { groupId: o.groupId });

/** The group a project sits in directly (`project.group`), or null for a personal project. */
export function projectGroup(state: State, project: Project): Namespace | null {
  const ns = tget(state.namespaces, project.namespaceId);
  return ns && ns.kind === 'group' ? ns : null;
}

/** Milestones a project's title must not repeat, and where releases look titles up: its own and its group's. */
export function projectMilestoneScope(state: State, project: Project): Milestone[] {
  const group = projectGroup(state, project);
  return [...ownMilestones(state, { projectId: project.id }), ...(group ? ownMilestones(state, { groupId: group.id }) : [])];
}

/** Whose titles a project's new milestone must not repeat: the project's and its group's. */
export function projectTitleOwners(state: State, project: Project): MilestoneOwner[] {
  const group = projectGroup(state, project);
  return group ? [{ projectId: project.id }, { groupId: group.id }] : [{ projectId: project.id }];
}

/** Whose titles a group's new milestone must not repeat: the group's and its direct projects'. */
export function groupTitleOwners(state: State, group: Namespace): MilestoneOwner[] {
  const out: MilestoneOwner[] = [{ groupId: group.id }];
  for (const p of tvalues(state.projects)) if (p.namespaceId === group.id) out.push({ projectId: p.id });
  return out;
}

/**
 * A date as ActiveRecord casts a string into a date column: `YYYY-MM-DD` (or a timestamp
 * starting with one); anything it cannot read becomes nil, as GitLab's API types dates as String.
 */
export function castDate(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/.exec(raw);
  if (!m) return null;
  const text = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  const d = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== text ? null : text;
}

/** Timebox#expired?: a due date before today. */
export const isExpired = (m: Milestone, now: number): boolean => m.dueDate !== null && m.dueDate < today(now);

/** ProjectPolicy `read_milestone`: readers of the project, unless both issues and merge requests are closed to them. */
export function canReadProjectMilestones(state: State, user: User | null, project: Project, now: number): boolean {
  return canUseFeature(state, user, project, 'issues', now) || canUseFeature(state, user, project, 'merge_requests', now);
}

/** ProjectPolicy `admin_milestone`: planners and above (`planner_access`, `reporter_access`). */
export function canAdminProjectMilestones(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.planner, now) && canReadProjectMilestones(state, user, project, now);
}

/** GroupPolicy `admin_milestone`: planners and above. */
export function canAdminGroupMilestones(state: State, user: User | null, group: Namespace, now: number): boolean {
  return hasGroupRole(state, user, group, ACCESS.planner, now);
}

const nullsLastAsc = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/** Milestone.order_by_dates_and_title: due date, start date (nulls last), then title. */
export function orderByDatesAndTitle(list: readonly Milestone[]): Milestone[] {
  return [...list].sort((a, b) => nullsLastAsc(a.dueDate, b.dueDate) || nullsLastAsc(a.startDate, b.startDate) || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
}

export interface MilestoneFilters {
  state: 'active' | 'closed' | 'all';
  iids?: number[];
  title?: string;
  search?: string;
  updatedBefore?: number;
  updatedAfter?: number;
  /** With ancestors, `iids` is ignored (MilestonesFinder#by_iids). */
  includeAncestors?: boolean;
}

/** Gitlab::SQL::Pattern#fuzzy_search over title and description (partial matches from two characters). */
function fuzzyMatch(m: Milestone, query: string): boolean {
  const words = (query.match(/"[^"]+"|\S+/g) ?? []).map((w) => w.replace(/^"|"$/g, '')).filter((w) => w.length >= 2);
  const fields = [m.title, m.description];
  if (words.length === 0) return fields.some((f) => f === query);
  return fields.some((f) => words.every((w) => f.toLowerCase().includes(w.toLowerCase())));
}

/** MilestonesFinder#execute over the given milestones: filters, then due date (nulls last) and id descending. */
export function findMilestones(all: readonly Milestone[], f: MilestoneFilters): Milestone[] {
  const out = all.filter((m) => {
    if (f.title !== undefined && f.title !== '' && m.title !== f.title) return false;
    if (f.search !== undefined && f.search !== '' && !fuzzyMatch(m, f.search)) return false;
    if (f.state !== 'all' && m.state !== f.state) return false;
    if (f.updatedBefore !== undefined && m.updatedAt > f.updatedBefore) return false;
    if (f.updatedAfter !== undefined && m.updatedAt < f.updatedAfter) return false;
    if (f.iids?.length && !f.includeAncestors && !f.iids.includes(m.iid)) return false;
    return true;
  });
  return out.sort((a, b) => nullsLastAsc(a.dueDate, b.dueDate) || b.id - a.id);
}

/** The milestones a project lists: its own, and with `includeAncestors` those of its group and the group's ancestors. */
export function projectListScope(state: State, project: Project, includeAncestors: boolean): Milestone[] {
  const out = ownMilestones(state, { projectId: project.id });
  const group = projectGroup(state, project);
  if (includeAncestors && group) for (const g of ancestry(state, group.id)) out.push(...ownMilestones(state, { groupId: g.id }));
  return out;
}

/**
 * The milestones a group lists: its own; with ancestors, those of the ancestors the caller can
 * see; with descendants, those of its subgroups and of the projects inside it.
 */
export function groupListScope(state: State, user: User | null, group: Namespace, opts: { ancestors: boolean; descendants: boolean }, now: number): Milestone[] {
  const groups = new Map<number, Namespace>([[group.id, group]]);
  if (opts.ancestors) for (const g of ancestry(state, group.id)) groups.set(g.id, g);
  if (opts.descendants) for (const ns of tvalues(state.namespaces)) if (ns.kind === 'group' && isWithin(state, ns.id, group.id)) groups.set(ns.id, ns);
  const out: Milestone[] = [];
  for (const g of groups.values()) if (g.id === group.id || canReadGroup(state, user, g, now)) out.push(...ownMilestones(state, { groupId: g.id }));
  if (opts.descendants) {
    for (const p of tvalues(state.projects)) {
      if (!p.pendingDelete && isWithin(state, p.namespaceId, group.id) && canReadProjectMilestones(state, user, p, now)) out.push(...ownMilestones(state, { projectId: p.id }));
    }
  }
  return out;
}

/** ActiveModel errors as Ruby prints a Hash (`{:title=>["can't be blank"]}`), for "Failed to create milestone ...". */
export function rubyErrorsHash(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors).map(([k, v]) => `:${k}=>[${v.map((m) => JSON.stringify(m)).join(', ')}]`);
  return `{${entries.join(', ')}}`;
}
