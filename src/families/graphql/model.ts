// The served types of GitLab's schema over the world: each class is one GraphQL type, each of its
// members a field (graphql-js calls a method with the field's arguments). What a caller may read is
// decided by the same finders and abilities the REST routes use.
import { GraphQLError } from 'graphql';
import { ancestry, canReadGroup, canReadProject, projectReader, today } from '../../policy/access.js';
import { namespaceByIdOrPath, projectByIdOrPath, projectFullPath } from '../../policy/paths.js';
import { plist, tget, tvalues } from '../../store/table.js';
import { noteKey, noteList, type Note } from '../../store/notes.js';
import { type Member, type Namespace, type Project, type User } from '../../store/state.js';
import type { Context } from '../define.js';
import type { State } from '../world.js';
import { findIssues, issueById, readableIssue, type Issue, type IssueFilters } from '../issues/index.js';
import { canReadMergeRequests, readableMergeRequest, type MergeRequest } from '../merge-requests/index.js';
import { groupLabelOwners, labelById, ownLabels, projectLabelOwners, textColor, type Label } from '../labels/index.js';
import { canReadProjectMilestones, ownMilestones, type Milestone } from '../milestones/index.js';
import { directMembers } from '../members/index.js';
import { canReadUser, findUserByIdOrUsername } from '../users/index.js';
import { canReadCode, repoView, resolveCommit } from '../repositories/index.js';
import { entryAt } from '../../git/tree.js';
import { groupProjects } from '../groups/index.js';
import { canReadInternalNotes, countAwards, isSubscribed, socialTarget } from '../issuables/index.js';
import { epicVisible, type Epic } from '../epics/index.js';
import { metadata } from '../instance/index.js';
import { canAdminProjectVariables, canReadBuilds, pipelineJobs, projectPipelines, variablesOf } from '../ci/index.js';
import { JobNode, PipelineNode, ReleaseNode } from './ci-nodes.js';
import { EpicNode, WorkItemNode } from './planning-nodes.js';
import { canReadReleases, findReleases } from '../releases/index.js';
import { projectSnippets, snippetsEnabled } from '../snippets/index.js';
import { canReadProjectWiki, findPage, groupWikiOwner, projectWikiOwner, slugOf, titleOf, type WikiOwner } from '../wikis/index.js';
import { Connection, type PageArgs } from './connection.js';
import { moreMutations, mutations } from './mutations.js';

export const gid = (type: string, id: number | string) => `gid://gitlab/${type}/${id}`;

/** A global id of one of `types` (`gid://gitlab/Issue/1`): its numeric id, or GitLab's coercion error. */
export function gidId(value: unknown, ...types: string[]): number {
  const m = typeof value === 'string' ? /^gid:\/\/gitlab\/([\w:]+)\/(\d+)$/.exec(value) : null;
  if (!m || !types.includes(m[1]!)) {
    throw new GraphQLError(`${JSON.stringify(value)} is not a valid Global ID of type ${types[0]}`, { extensions: { code: 'argumentError' } });
  }
  return Number(m[2]);
}

/** GitLab's Time scalar: ISO 8601 to the second, in UTC. */
export const time = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));
export const dateTime = (date: string | null): string | null => (date ? `${date}T00:00:00Z` : null);

/** The request seen by the resolvers: the world as it is now (a mutation changes it), who asks, when. */
export class Graph {
  constructor(readonly ctx: Context<unknown>) {}
  get state(): State {
    return this.ctx.state;
  }
  get user(): User | null {
    return this.ctx.user;
  }
  get now(): number {
    return this.ctx.now();
  }
  get webBase(): string {
    return this.ctx.webBase;
  }
  /** The project at a full path when the caller may read it (REST's findProject), else null. */
  project(fullPath: string): Project | null {
    if (/^\d+$/.test(fullPath)) return null;
    const p = projectByIdOrPath(this.state, fullPath);
    return p && !p.pendingDelete && canReadProject(this.state, this.user, p, this.now) ? p : null;
  }
  group(fullPath: string): Namespace | null {
    if (/^\d+$/.test(fullPath)) return null;
    const g = namespaceByIdOrPath(this.state, fullPath);
    return g && g.kind === 'group' && !g.pendingDelete && canReadGroup(this.state, this.user, g, this.now) ? g : null;
  }
}

const issueSorts: Record<string, [string, 'asc' | 'desc']> = {
  CREATED_DESC: ['created_at', 'desc'], CREATED_ASC: ['created_at', 'asc'], UPDATED_DESC: ['updated_at', 'desc'], UPDATED_ASC: ['updated_at', 'asc'],
  DUE_DATE_ASC: ['due_date', 'asc'], DUE_DATE_DESC: ['due_date', 'desc'], TITLE_ASC: ['title', 'asc'], TITLE_DESC: ['title', 'desc'],
};

type IssueArgs = PageArgs & {
  iid?: string; iids?: string[]; state?: string; labelName?: string[]; milestoneTitle?: string[]; authorUsername?: string;
  assigneeUsernames?: string[]; search?: string; confidential?: boolean; types?: string[]; sort?: string;
};

/** The project's issues the caller may read, as REST's list finds them (IssuesFinder). */
export function projectIssues(g: Graph, project: Project, args: IssueArgs): Issue[] {
  const [orderBy, sort] = issueSorts[args.sort ?? 'CREATED_DESC'] ?? ['created_at', 'desc'];
  const f: IssueFilters = { scope: 'all', state: args.state === 'opened' || args.state === 'closed' ? args.state : 'all', order_by: orderBy, sort };
  const iids = [...(args.iid !== undefined ? [args.iid] : []), ...(args.iids ?? [])];
  if (iids.length) f.iids = iids.map(Number).filter(Number.isInteger);
  if (args.labelName?.length) f.labels = args.labelName.filter((l): l is string => typeof l === 'string');
  if (args.milestoneTitle?.length && typeof args.milestoneTitle[0] === 'string') f.milestone = args.milestoneTitle[0];
  if (args.authorUsername) f.author_username = args.authorUsername;
  if (args.assigneeUsernames?.length) f.assignee_username = args.assigneeUsernames;
  if (args.search) f.search = args.search;
  if (typeof args.confidential === 'boolean') f.confidential = args.confidential;
  if (args.state === 'locked') return [];
  let found = findIssues(g.state, 'project', f, { user: g.user, now: g.now }, { project });
  if (args.types?.length) found = found.filter((i) => args.types!.includes(i.issueType.toUpperCase()));
  return found;
}

export class UserNode {
  readonly __typename = 'UserCore';
  constructor(private g: Graph, readonly u: User) {}
  get id() { return gid('User', this.u.id); }
  get username() { return this.u.username; }
  get name() { return this.u.name; }
  get state() { return this.u.state; }
  get active() { return this.u.state === 'active'; }
  get bot() { return this.u.bot; }
  get publicEmail() { return this.u.publicEmail || null; }
  get location() { return this.u.location || null; }
  get createdAt() { return time(this.u.createdAt); }
  get webUrl() { return `${this.g.webBase}/${this.u.username}`; }
  get webPath() { return `/${this.u.username}`; }
  get avatarUrl() { return null; }
  namespace() {
    const ns = tget(this.g.state.namespaces, this.u.namespaceId);
    return ns && (this.g.user?.admin || this.g.user?.id === this.u.id) ? new NamespaceNode(this.g, ns) : null;
  }
  projectMemberships(args: PageArgs) {
    const out: ProjectMemberNode[] = [];
    for (const p of tvalues(this.g.state.projects)) {
      if (p.pendingDelete || !canReadProject(this.g.state, this.g.user, p, this.g.now)) continue;
      const m = directMembers(this.g.state, p, this.g.now).find((x) => x.userId === this.u.id);
      if (m) out.push(new ProjectMemberNode(this.g, p, m));
    }
    return new Connection(out, args, (m) => m.memberId);
  }
  groupMemberships(args: PageArgs) {
    const out: GroupMemberNode[] = [];
    for (const ns of tvalues(this.g.state.namespaces)) {
      if (ns.kind !== 'group' || !canReadGroup(this.g.state, this.g.user, ns, this.g.now)) continue;
      const m = directMembers(this.g.state, ns, this.g.now).find((x) => x.userId === this.u.id);
      if (m) out.push(new GroupMemberNode(this.g, ns, m));
    }
    return new Connection(out, args, (m) => m.memberId);
  }
}

export const userNode = (g: Graph, id: number | null): UserNode | null => {
  const u = id === null ? undefined : tget(g.state.users, id);
  return u ? new UserNode(g, u) : null;
};

const ACCESS_NAMES: Record<number, string> = {
  0: 'NO_ACCESS', 5: 'MINIMAL_ACCESS', 10: 'GUEST', 15: 'PLANNER', 20: 'REPORTER', 30: 'DEVELOPER', 40: 'MAINTAINER', 50: 'OWNER', 60: 'ADMIN',
};
const HUMAN_ACCESS: Record<number, string> = { 0: 'No access', 5: 'Minimal Access', 10: 'Guest', 15: 'Planner', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };

abstract class MemberNode {
  constructor(protected g: Graph, readonly m: Member) {}
  get memberId() { return this.m.id ?? 0; }
  get accessLevel() {
    return { integerValue: this.m.accessLevel, stringValue: ACCESS_NAMES[this.m.accessLevel] ?? null, humanAccess: HUMAN_ACCESS[this.m.accessLevel] ?? null };
  }
  get createdAt() { return time(this.m.createdAt); }
  get updatedAt() { return time(this.m.createdAt); }
  get expiresAt() { return dateTime(this.m.expiresAt); }
  createdBy() { return userNode(this.g, this.m.createdById); }
  user() { return userNode(this.g, this.m.userId); }
}

export class GroupMemberNode extends MemberNode {
  readonly __typename = 'GroupMember';
  constructor(g: Graph, private ns: Namespace, m: Member) { super(g, m); }
  get id() { return gid('GroupMember', this.memberId); }
  group() { return new GroupNode(this.g, this.ns); }
}

export class ProjectMemberNode extends MemberNode {
  readonly __typename = 'ProjectMember';
  constructor(g: Graph, private p: Project, m: Member) { super(g, m); }
  get id() { return gid('ProjectMember', this.memberId); }
  project() { return new ProjectNode(this.g, this.p); }
}

function fullName(state: State, ns: Namespace): string {
  return ancestry(state, ns.id).reverse().map((n) => n.name).join(' / ');
}

const projectSort = (sort: string | undefined) => {
  const s = (sort ?? 'created_desc').toLowerCase();
  return (a: Project, b: Project) => {
    const d = s.startsWith('updated') ? a.lastActivityAt - b.lastActivityAt : s.startsWith('name') ? a.name.localeCompare(b.name) : a.createdAt - b.createdAt || a.id - b.id;
    return s.endsWith('_asc') ? d : -d;
  };
};

type ProjectListArgs = PageArgs & { includeSubgroups?: boolean; search?: string; sort?: string };

function namespaceProjects(g: Graph, ns: Namespace, args: ProjectListArgs): Connection<ProjectNode> {
  const read = projectReader(g.state, g.user, g.now);
  const search = args.search?.toLowerCase();
  const list = groupProjects(g.state, ns, args.includeSubgroups === true)
    .filter((p) => !p.pendingDelete && read(p) && (!search || p.name.toLowerCase().includes(search) || p.path.toLowerCase().includes(search)))
    .sort(projectSort(args.sort));
  return new Connection(list.map((p) => new ProjectNode(g, p)), args, (n) => n.p.id, (n) => ({ created_at: time(n.p.createdAt) }));
}

export class NamespaceNode {
  readonly __typename: string = 'Namespace';
  constructor(protected g: Graph, readonly ns: Namespace) {}
  get id() { return this.ns.kind === 'group' ? gid('Group', this.ns.id) : gid('Namespaces::UserNamespace', this.ns.id); }
  get name() { return this.ns.name; }
  get path() { return this.ns.path; }
  get fullPath() { return this.ns.fullPath; }
  get fullName() { return fullName(this.g.state, this.ns); }
  get description() { return this.ns.description || null; }
  get visibility() { return this.ns.visibility; }
  get webUrl() { return this.ns.kind === 'group' ? `${this.g.webBase}/groups/${this.ns.fullPath}` : `${this.g.webBase}/${this.ns.fullPath}`; }
  projects(args: ProjectListArgs) { return namespaceProjects(this.g, this.ns, args); }
}

export class GroupNode extends NamespaceNode {
  override readonly __typename: string = 'Group';
  get createdAt() { return time(this.ns.createdAt); }
  get updatedAt() { return time(this.ns.updatedAt); }
  parent() {
    const p = this.ns.parentId === null ? undefined : tget(this.g.state.namespaces, this.ns.parentId);
    return p && canReadGroup(this.g.state, this.g.user, p, this.g.now) ? new GroupNode(this.g, p) : null;
  }
  descendantGroups(args: PageArgs & { includeParentDescendants?: boolean; search?: string }) {
    const search = args.search?.toLowerCase();
    const all = [...tvalues(this.g.state.namespaces)].filter((n) => {
      if (n.kind !== 'group' || n.id === this.ns.id || n.pendingDelete) return false;
      const within = args.includeParentDescendants === false ? n.parentId === this.ns.id : ancestry(this.g.state, n.id).some((a) => a.id === this.ns.id);
      return within && canReadGroup(this.g.state, this.g.user, n, this.g.now) && (!search || n.name.toLowerCase().includes(search) || n.path.toLowerCase().includes(search));
    });
    all.sort((a, b) => a.id - b.id);
    return new Connection(all.map((n) => new GroupNode(this.g, n)), args, (n) => n.ns.id);
  }
  groupMembers(args: PageArgs & { search?: string }) {
    const search = args.search?.toLowerCase();
    const list = directMembers(this.g.state, this.ns, this.g.now)
      .filter((m) => {
        if (!search) return true;
        const u = tget(this.g.state.users, m.userId);
        return !!u && (u.username.toLowerCase().includes(search) || u.name.toLowerCase().includes(search));
      })
      .map((m) => new GroupMemberNode(this.g, this.ns, m));
    return new Connection(list, args, (m) => m.memberId);
  }
  /** Epics are a Premium feature: null on a lower tier, as GitLab's resolver answers an unlicensed one. */
  epics(args: PageArgs & { iid?: string; iids?: string[]; state?: string; search?: string; includeDescendantGroups?: boolean }) {
    if (this.g.state.instance.tier === 'free') return null;
    const groups = [...tvalues(this.g.state.namespaces)].filter(
      (n) => n.kind === 'group' && (n.id === this.ns.id || (args.includeDescendantGroups !== false && ancestry(this.g.state, n.id).some((a) => a.id === this.ns.id))) && canReadGroup(this.g.state, this.g.user, n, this.g.now),
    );
    const iids = [...(args.iid !== undefined ? [args.iid] : []), ...(args.iids ?? [])];
    const search = args.search?.toLowerCase();
    const list: Epic[] = [];
    for (const g of groups) {
      const own = tget(this.g.state.epics, g.id);
      if (!own) continue;
      for (const e of tvalues(own)) {
        if (!epicVisible(this.g.state, this.g.user, e, this.g.now)) continue;
        if (args.state && args.state !== 'all' && e.state !== args.state) continue;
        if (iids.length && (g.id !== this.ns.id || !iids.includes(String(e.iid)))) continue;
        if (search && !`${e.title}\n${e.description}`.toLowerCase().includes(search)) continue;
        list.push(e);
      }
    }
    list.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    return new Connection(list.map((e) => new EpicNode(this.g, e)), args, (n) => n.e.id, (n) => ({ created_at: time(n.e.createdAt) }));
  }
  epic(args: { iid?: string }) {
    if (args.iid === undefined) return null;
    return this.epics({ iid: args.iid, includeDescendantGroups: false })?.nodes()[0] ?? null;
  }
  labels(args: PageArgs & { searchTerm?: string; includeAncestorGroups?: boolean }) {
    const owners = args.includeAncestorGroups ? groupLabelOwners(this.g.state, this.ns) : [{ groupId: this.ns.id }];
    return labelConnection(this.g, owners.flatMap((o) => ownLabels(this.g.state, o)), args);
  }
  milestones(args: MilestoneArgs) {
    const owners = args.includeAncestors ? ancestry(this.g.state, this.ns.id).map((n) => ({ groupId: n.id })) : [{ groupId: this.ns.id }];
    return milestoneConnection(this.g, owners.flatMap((o) => ownMilestones(this.g.state, o)), args);
  }
}

function labelConnection(g: Graph, labels: Label[], args: PageArgs & { searchTerm?: string }) {
  const term = args.searchTerm?.toLowerCase();
  const list = labels.filter((l) => !term || l.title.toLowerCase().includes(term) || l.description.toLowerCase().includes(term)).sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
  return new Connection(list.map((l) => new LabelNode(l)), args, (n) => n.l.id, (n) => ({ title: n.l.title }));
}

type MilestoneArgs = PageArgs & { state?: string; searchTitle?: string; includeAncestors?: boolean };

function milestoneConnection(g: Graph, all: Milestone[], args: MilestoneArgs) {
  const term = args.searchTitle?.toLowerCase();
  const list = all.filter((m) => (!args.state || m.state === args.state) && (!term || m.title.toLowerCase().includes(term))).sort((a, b) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') || a.id - b.id);
  return new Connection(list.map((m) => new MilestoneNode(g, m)), args, (n) => n.m.id, (n) => ({ due_date: n.m.dueDate }));
}

export class LabelNode {
  readonly __typename = 'Label';
  constructor(readonly l: Label) {}
  get id() { return gid(this.l.projectId !== null ? 'ProjectLabel' : 'GroupLabel', this.l.id); }
  get title() { return this.l.title; }
  get color() { return this.l.color; }
  get textColor() { return textColor(this.l.color); }
  get description() { return this.l.description || null; }
  get createdAt() { return time(this.l.createdAt); }
  get updatedAt() { return time(this.l.createdAt); }
}

export class MilestoneNode {
  readonly __typename = 'Milestone';
  constructor(private g: Graph, readonly m: Milestone) {}
  get id() { return gid('Milestone', this.m.id); }
  get iid() { return String(this.m.iid); }
  get title() { return this.m.title; }
  get description() { return this.m.description || null; }
  get state() { return this.m.state; }
  get dueDate() { return dateTime(this.m.dueDate); }
  get startDate() { return dateTime(this.m.startDate); }
  get createdAt() { return time(this.m.createdAt); }
  get updatedAt() { return time(this.m.updatedAt); }
  get expired() { return this.m.dueDate !== null && this.m.dueDate < today(this.g.now); }
  get groupMilestone() { return this.m.groupId !== null; }
  get projectMilestone() { return this.m.projectId !== null; }
  get webPath() {
    if (this.m.projectId !== null) {
      const p = tget(this.g.state.projects, this.m.projectId);
      return `/${p ? projectFullPath(this.g.state, p) : ''}/-/milestones/${this.m.iid}`;
    }
    const ns = tget(this.g.state.namespaces, this.m.groupId!);
    return `/groups/${ns?.fullPath ?? ''}/-/milestones/${this.m.iid}`;
  }
}

function userConnection(g: Graph, ids: readonly number[], args: PageArgs) {
  const users = ids.map((id) => tget(g.state.users, id)).filter((u): u is User => !!u).map((u) => new UserNode(g, u));
  return new Connection(users, args, (n) => n.u.id);
}

function noteConnection(g: Graph, key: string, project: Project, args: PageArgs, target: Parameters<typeof canReadInternalNotes>[2]) {
  const internal = canReadInternalNotes(g.state, g.user, target, g.now);
  const notes = noteList(g.state, key).filter((n) => internal || !n.internal);
  return new Connection(notes.map((n) => new NoteNode(g, n)), args, (n) => n.n.id, (n) => ({ created_at: time(n.n.createdAt) }));
}

export class NoteNode {
  readonly __typename = 'Note';
  constructor(private g: Graph, readonly n: Note) {}
  get id() { return gid('Note', this.n.id); }
  get body() { return this.n.body; }
  get system() { return this.n.system; }
  get internal() { return this.n.internal; }
  get createdAt() { return time(this.n.createdAt); }
  get updatedAt() { return time(this.n.updatedAt); }
  author() { return userNode(this.g, this.n.authorId); }
}

export class IssueNode {
  readonly __typename = 'Issue';
  constructor(private g: Graph, readonly i: Issue) {}
  private get project(): Project {
    return tget(this.g.state.projects, this.i.projectId)!;
  }
  get id() { return gid('Issue', this.i.id); }
  get iid() { return String(this.i.iid); }
  get title() { return this.i.title; }
  get description() { return this.i.description || null; }
  get state() { return this.i.state; }
  get confidential() { return this.i.confidential; }
  get discussionLocked() { return this.i.discussionLocked === true; }
  get subscribed() { return isSubscribed(this.g.state, socialTarget('Issue', this.i), this.g.user, this.g.now); }
  get createdAt() { return time(this.i.createdAt); }
  get updatedAt() { return time(this.i.updatedAt); }
  get closedAt() { return time(this.i.closedAt); }
  get dueDate() { return dateTime(this.i.dueDate); }
  get projectId() { return this.i.projectId; }
  get type() { return this.i.issueType.toUpperCase(); }
  get webPath() { return `/${projectFullPath(this.g.state, this.project)}/-/issues/${this.i.iid}`; }
  get webUrl() { return `${this.g.webBase}${this.webPath}`; }
  get upvotes() { return countAward(this.g, 'Issue', this.i.id, 'thumbsup'); }
  get downvotes() { return countAward(this.g, 'Issue', this.i.id, 'thumbsdown'); }
  get userNotesCount() { return noteList(this.g.state, noteKey('Issue', this.i.id)).filter((n) => !n.system).length; }
  reference(args: { full?: boolean }) { return args.full ? `${projectFullPath(this.g.state, this.project)}#${this.i.iid}` : `#${this.i.iid}`; }
  author() { return userNode(this.g, this.i.authorId)!; }
  assignees(args: PageArgs) { return userConnection(this.g, this.i.assigneeIds, args); }
  labels(args: PageArgs) {
    const labels = this.i.labelIds.map((id) => labelById(this.g.state, id)).filter((l): l is Label => !!l);
    return new Connection(labels.map((l) => new LabelNode(l)), args, (n) => n.l.id);
  }
  milestone() { return findMilestone(this.g, this.project, this.i.milestoneId); }
  notes(args: PageArgs) {
    return noteConnection(this.g, noteKey('Issue', this.i.id), this.project, args, { type: 'Issue', issue: this.i, project: this.project } as never);
  }
}

function findMilestone(g: Graph, project: Project, id: number | null): MilestoneNode | null {
  if (id === null) return null;
  const owners = [{ projectId: project.id }, ...ancestry(g.state, project.namespaceId).filter((n) => n.kind === 'group').map((n) => ({ groupId: n.id }))];
  for (const o of owners) {
    const m = ownMilestones(g.state, o as never).find((x) => x.id === id);
    if (m) return new MilestoneNode(g, m);
  }
  return null;
}

function countAward(g: Graph, type: 'Issue' | 'MergeRequest', id: number, name: string): number {
  return countAwards(g.state, { type, id }, name);
}

const mrSorts: Record<string, [keyof MergeRequest, 'asc' | 'desc']> = {
  CREATED_DESC: ['createdAt', 'desc'], CREATED_ASC: ['createdAt', 'asc'], UPDATED_DESC: ['updatedAt', 'desc'], UPDATED_ASC: ['updatedAt', 'asc'],
  MERGED_AT_DESC: ['mergedAt', 'desc'], MERGED_AT_ASC: ['mergedAt', 'asc'], TITLE_DESC: ['title', 'desc'], TITLE_ASC: ['title', 'asc'],
};

export class MergeRequestNode {
  readonly __typename = 'MergeRequest';
  constructor(private g: Graph, readonly mr: MergeRequest) {}
  private get p(): Project {
    return tget(this.g.state.projects, this.mr.projectId)!;
  }
  get id() { return gid('MergeRequest', this.mr.id); }
  get iid() { return String(this.mr.iid); }
  get title() { return this.mr.title; }
  get description() { return this.mr.description || null; }
  get state() { return this.mr.state; }
  get draft() { return this.mr.draft; }
  get sourceBranch() { return this.mr.sourceBranch; }
  get targetBranch() { return this.mr.targetBranch; }
  get diffHeadSha() { return this.mr.sha || null; }
  get createdAt() { return time(this.mr.createdAt); }
  get updatedAt() { return time(this.mr.updatedAt); }
  get mergedAt() { return time(this.mr.mergedAt); }
  get closedAt() { return time(this.mr.closedAt); }
  get projectId() { return this.mr.projectId; }
  get webUrl() { return `${this.g.webBase}/${projectFullPath(this.g.state, this.p)}/-/merge_requests/${this.mr.iid}`; }
  get userNotesCount() { return noteList(this.g.state, noteKey('MergeRequest', this.mr.id)).filter((n) => !n.system).length; }
  project() { return new ProjectNode(this.g, this.p); }
  author() { return userNode(this.g, this.mr.authorId); }
  assignees(args: PageArgs) { return userConnection(this.g, this.mr.assigneeIds, args); }
  reviewers(args: PageArgs) { return userConnection(this.g, this.mr.reviewerIds, args); }
  labels(args: PageArgs) {
    const labels = this.mr.labelIds.map((id) => labelById(this.g.state, id)).filter((l): l is Label => !!l);
    return new Connection(labels.map((l) => new LabelNode(l)), args, (n) => n.l.id);
  }
  milestone() { return findMilestone(this.g, this.p, this.mr.milestoneId); }
  notes(args: PageArgs) {
    return noteConnection(this.g, noteKey('MergeRequest', this.mr.id), this.p, args, { type: 'MergeRequest', mergeRequest: this.mr, project: this.p } as never);
  }
}

interface TreeRow {
  path: string;
  name: string;
  oid: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
}

export class RepositoryNode {
  constructor(private g: Graph, private p: Project) {}
  get rootRef() { return this.p.defaultBranch; }
  get exists() { return true; }
  async empty() {
    const ref = this.p.defaultBranch;
    if (!ref) return true;
    const commit = await resolveCommit(this.g.ctx.env.git.repository(this.p.id), repoView(this.g.state, this.p), ref);
    return !commit;
  }
  async blobs(args: PageArgs & { paths: string[]; ref?: string }) {
    const repo = this.g.ctx.env.git.repository(this.p.id);
    const ref = args.ref || this.p.defaultBranch || 'HEAD';
    const commit = await resolveCommit(repo, repoView(this.g.state, this.p), ref);
    const out: Record<string, unknown>[] = [];
    if (commit) {
      const root = (await repo.readCommit(commit)).tree;
      for (const path of args.paths) {
        const e = await entryAt(repo, root, path.replace(/^\/+/, ''));
        if (!e || e.type !== 'blob') continue;
        const bytes = await repo.readBlob(e.oid);
        const webPath = `/${projectFullPath(this.g.state, this.p)}/-/blob/${ref}/${path}`;
        out.push({
          id: gid('Blob', e.oid), oid: e.oid, name: path.split('/').pop(), path, mode: e.mode, size: String(bytes.length),
          rawTextBlob: bytes.includes(0) ? null : new TextDecoder().decode(bytes), webPath, webUrl: `${this.g.webBase}${webPath}`,
        });
      }
    }
    return new Connection(out, args, (b) => String(b.path));
  }
  async tree(args: { path?: string; recursive?: boolean; ref?: string }) {
    const repo = this.g.ctx.env.git.repository(this.p.id);
    const commit = await resolveCommit(repo, repoView(this.g.state, this.p), args.ref || this.p.defaultBranch || 'HEAD');
    if (!commit) return null;
    let tree = (await repo.readCommit(commit)).tree;
    const path = (args.path ?? '').replace(/^\/+|\/+$/g, '');
    if (path !== '') {
      let found: string | null = tree;
      for (const part of path.split('/')) {
        const e: { oid: string; type: string } | undefined = found ? (await repo.readTree(found)).get(part) : undefined;
        found = e && e.type === 'tree' ? e.oid : null;
        if (!found) return null;
      }
      tree = found!;
    }
    const rows: TreeRow[] = [];
    const walk = async (oid: string, prefix: string) => {
      for (const e of (await repo.readTree(oid)).values()) {
        rows.push({ path: prefix + e.name, name: e.name, oid: e.oid, mode: e.mode === '40000' ? '040000' : e.mode, type: e.type as TreeRow['type'] });
        if (args.recursive && e.type === 'tree') await walk(e.oid, `${prefix}${e.name}/`);
      }
    };
    await walk(tree, path === '' ? '' : `${path}/`);
    return new TreeNode(this.g, this.p, rows, args.ref || this.p.defaultBranch || 'HEAD');
  }
}

export class TreeNode {
  constructor(private g: Graph, private p: Project, private rows: TreeRow[], private ref: string) {}
  private entry(r: TreeRow, kind: 'blob' | 'tree') {
    const webPath = `/${projectFullPath(this.g.state, this.p)}/-/${kind}/${this.ref}/${r.path}`;
    return { __typename: kind === 'blob' ? 'Blob' : 'TreeEntry', id: gid('Gitlab::Graphql::Representation::TreeEntry', r.oid), sha: r.oid, name: r.name, path: r.path, flatPath: r.path, type: r.type, mode: r.mode, webPath, webUrl: `${this.g.webBase}${webPath}` };
  }
  blobs(args: PageArgs) {
    return new Connection(this.rows.filter((r) => r.type === 'blob').map((r) => this.entry(r, 'blob')), args, (e) => e.path);
  }
  trees(args: PageArgs) {
    return new Connection(this.rows.filter((r) => r.type === 'tree').map((r) => this.entry(r, 'tree')), args, (e) => e.path);
  }
}

export class ProjectNode {
  readonly __typename = 'Project';
  constructor(private g: Graph, readonly p: Project) {}
  get id() { return gid('Project', this.p.id); }
  get name() { return this.p.name; }
  get path() { return this.p.path; }
  get fullPath() { return projectFullPath(this.g.state, this.p); }
  get nameWithNamespace() {
    const ns = tget(this.g.state.namespaces, this.p.namespaceId);
    return ns ? `${fullName(this.g.state, ns)} / ${this.p.name}` : this.p.name;
  }
  get description() { return this.p.description || null; }
  get visibility() { return this.p.visibility; }
  get archived() { return this.p.archived; }
  get createdAt() { return time(this.p.createdAt); }
  get updatedAt() { return time(this.p.updatedAt); }
  get lastActivityAt() { return time(this.p.lastActivityAt); }
  get starCount() { return this.p.starCount; }
  get forksCount() {
    let n = 0;
    for (const q of tvalues(this.g.state.projects)) if ((q as { forkedFromId?: number | null }).forkedFromId === this.p.id) n++;
    return n;
  }
  get topics() { return this.p.topics; }
  get webUrl() { return `${this.g.webBase}/${this.fullPath}`; }
  get httpUrlToRepo() { return `${this.g.webBase}/${this.fullPath}.git`; }
  get sshUrlToRepo() { return `git@${new URL(this.g.webBase).host}:${this.fullPath}.git`; }
  get openIssuesCount() {
    return projectIssues(this.g, this.p, { state: 'opened' }).length;
  }
  namespace() {
    const ns = tget(this.g.state.namespaces, this.p.namespaceId);
    return ns ? (ns.kind === 'group' ? new GroupNode(this.g, ns) : new NamespaceNode(this.g, ns)) : null;
  }
  group() {
    const ns = tget(this.g.state.namespaces, this.p.namespaceId);
    return ns && ns.kind === 'group' && canReadGroup(this.g.state, this.g.user, ns, this.g.now) ? new GroupNode(this.g, ns) : null;
  }
  repository() {
    return canReadCode(this.g.state, this.g.user, this.p, this.g.now) ? new RepositoryNode(this.g, this.p) : null;
  }
  issues(args: IssueArgs) {
    const list = projectIssues(this.g, this.p, args);
    const [orderBy] = issueSorts[args.sort ?? 'CREATED_DESC'] ?? ['created_at'];
    const key = (i: Issue): Record<string, string | number | null> =>
      orderBy === 'updated_at' ? { updated_at: time(i.updatedAt) } : orderBy === 'due_date' ? { due_date: i.dueDate } : orderBy === 'title' ? { title: i.title } : { created_at: time(i.createdAt) };
    return new Connection(list.map((i) => new IssueNode(this.g, i)), args, (n) => n.i.id, (n) => key(n.i));
  }
  workItems(args: IssueArgs) {
    const list = projectIssues(this.g, this.p, args);
    return new Connection(list.map((i) => new WorkItemNode(this.g, i)), args, (n) => n.i.id, (n) => ({ created_at: time(n.i.createdAt) }));
  }
  issue(args: { iid?: string }) {
    if (args.iid === undefined || !/^\d+$/.test(args.iid)) return null;
    const i = readableIssue(this.g.state, this.g.user, this.p, Number(args.iid), this.g.now);
    return i ? new IssueNode(this.g, i) : null;
  }
  mergeRequests(args: PageArgs & { iids?: string[]; sourceBranches?: string[]; targetBranches?: string[]; state?: string; draft?: boolean; labels?: string[]; authorUsername?: string; sort?: string }) {
    if (!canReadMergeRequests(this.g.state, this.g.user, this.p, this.g.now)) return null;
    let list = plist(this.g.state.mergeRequests, this.p.id);
    if (args.iids) list = list.filter((m) => args.iids!.includes(String(m.iid)));
    if (args.sourceBranches) list = list.filter((m) => args.sourceBranches!.includes(m.sourceBranch));
    if (args.targetBranches) list = list.filter((m) => args.targetBranches!.includes(m.targetBranch));
    if (args.state && args.state !== 'all') list = list.filter((m) => m.state === args.state);
    if (typeof args.draft === 'boolean') list = list.filter((m) => m.draft === args.draft);
    if (args.labels?.length) {
      list = list.filter((m) => args.labels!.every((t) => m.labelIds.some((id) => labelById(this.g.state, id)?.title === t)));
    }
    if (args.authorUsername) {
      const author = findUserByIdOrUsername(this.g.state, args.authorUsername);
      list = list.filter((m) => m.authorId === author?.id && !/^\d+$/.test(args.authorUsername!));
    }
    const [field, dir] = mrSorts[args.sort ?? 'CREATED_DESC'] ?? ['createdAt', 'desc'];
    list = [...list].sort((a, b) => {
      const x = a[field] as number | string | null;
      const y = b[field] as number | string | null;
      const d = x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return (dir === 'asc' ? d : -d) || (dir === 'asc' ? a.id - b.id : b.id - a.id);
    });
    return new Connection(list.map((m) => new MergeRequestNode(this.g, m)), args, (n) => n.mr.id, (n) => ({ created_at: time(n.mr.createdAt) }));
  }
  mergeRequest(args: { iid: string }) {
    if (!/^\d+$/.test(args.iid)) return null;
    const mr = readableMergeRequest(this.g.state, this.g.user, this.p, Number(args.iid), this.g.now);
    return mr ? new MergeRequestNode(this.g, mr) : null;
  }
  labels(args: PageArgs & { searchTerm?: string; includeAncestorGroups?: boolean }) {
    const owners = args.includeAncestorGroups ? projectLabelOwners(this.g.state, this.p) : [{ projectId: this.p.id }];
    return labelConnection(this.g, owners.flatMap((o) => ownLabels(this.g.state, o)), args);
  }
  milestones(args: MilestoneArgs) {
    if (!canReadProjectMilestones(this.g.state, this.g.user, this.p, this.g.now)) return null;
    const owners = [{ projectId: this.p.id }, ...(args.includeAncestors ? ancestry(this.g.state, this.p.namespaceId).filter((n) => n.kind === 'group').map((n) => ({ groupId: n.id })) : [])];
    return milestoneConnection(this.g, owners.flatMap((o) => ownMilestones(this.g.state, o as never)), args);
  }
  pipelines(args: PageArgs & { status?: string; ref?: string; sha?: string; source?: string }) {
    if (!canReadBuilds(this.g.state, this.g.user, this.p, this.g.now)) return null;
    const list: PipelineNode[] = [];
    for (const x of projectPipelines(this.g.state, this.p.id)) {
      if (args.status && x.status.toUpperCase() !== args.status) continue;
      if (args.ref && x.ref !== args.ref) continue;
      if (args.sha && x.sha !== args.sha) continue;
      if (args.source && x.source !== args.source) continue;
      list.push(new PipelineNode(this.g, x, this.p));
    }
    return new Connection(list, args, (n) => n.p.id);
  }
  pipeline(args: { iid?: string; id?: string; sha?: string }) {
    if (!canReadBuilds(this.g.state, this.g.user, this.p, this.g.now)) return null;
    const id = args.id !== undefined ? gidId(args.id, 'Ci::Pipeline') : undefined;
    for (const x of projectPipelines(this.g.state, this.p.id)) {
      const hit = args.iid !== undefined ? String(x.iid) === args.iid : id !== undefined ? x.id === id : args.sha !== undefined ? x.sha === args.sha : x.ref === this.p.defaultBranch;
      if (hit) return new PipelineNode(this.g, x, this.p);
    }
    return null;
  }
  jobs(args: PageArgs & { statuses?: string[] }) {
    if (!canReadBuilds(this.g.state, this.g.user, this.p, this.g.now)) return null;
    const list: JobNode[] = [];
    for (const x of projectPipelines(this.g.state, this.p.id)) {
      for (const j of pipelineJobs(this.g.state, x.id)) if (!j.retried && (!args.statuses || args.statuses.includes(j.status.toUpperCase()))) list.push(new JobNode(this.g, j, this.p));
    }
    list.sort((a, b) => b.j.id - a.j.id);
    return new Connection(list, args, (n) => n.j.id);
  }
  snippets(args: PageArgs) {
    if (!snippetsEnabled(this.g.state, this.g.user, this.p, this.g.now)) return null;
    const list = projectSnippets(this.g.state, this.g.user, this.p, this.g.now).map((x) => ({
      id: gid('ProjectSnippet', x.id), title: x.title, description: x.description, fileName: x.fileName, visibilityLevel: x.visibility,
      createdAt: time(x.createdAt), updatedAt: time(x.updatedAt), webUrl: `${this.webUrl}/-/snippets/${x.id}`, author: () => userNode(this.g, x.authorId),
    }));
    return new Connection(list, args, (x) => x.id.split('/').pop()!);
  }
  ciVariables(args: PageArgs) {
    if (!canAdminProjectVariables(this.g.state, this.g.user, this.p, this.g.now)) return null;
    const list = [...variablesOf(this.g.state, { kind: 'project', id: this.p.id })].map((v) => ({
      id: gid('Ci::Variable', v.id), key: v.key, value: v.hidden ? null : v.value, variableType: v.variableType.toUpperCase(), protected: v.protected,
      masked: v.masked, raw: v.raw, hidden: v.hidden, environmentScope: v.environmentScope, description: v.description,
    }));
    const c = new Connection(list, args, (v) => v.id.split('/').pop()!);
    return Object.assign(c, { limit: this.g.state.ciLimits.project_ci_variables });
  }
  releases(args: PageArgs & { sort?: string }) {
    if (!canReadReleases(this.g.state, this.g.user, this.p, this.g.now)) return null;
    const sort = args.sort ?? 'RELEASED_AT_DESC';
    const list = findReleases(this.g.state, this.p, { orderBy: sort.startsWith('CREATED') ? 'created_at' : 'released_at', sort: sort.endsWith('ASC') ? 'asc' : 'desc' });
    return new Connection(list.map((r) => new ReleaseNode(this.g, r)), args, (n) => n.r.id, (n) => ({ released_at: time(n.r.releasedAt) }));
  }
  release(args: { tagName: string }) {
    if (!canReadReleases(this.g.state, this.g.user, this.p, this.g.now)) return null;
    const r = findReleases(this.g.state, this.p).find((x) => x.tagName === args.tagName);
    return r ? new ReleaseNode(this.g, r) : null;
  }
  projectMembers(args: PageArgs & { search?: string }) {
    const search = args.search?.toLowerCase();
    const list = directMembers(this.g.state, this.p, this.g.now)
      .filter((m) => {
        if (!search) return true;
        const u = tget(this.g.state.users, m.userId);
        return !!u && (u.username.toLowerCase().includes(search) || u.name.toLowerCase().includes(search));
      })
      .map((m) => new ProjectMemberNode(this.g, this.p, m));
    return new Connection(list, args, (m) => m.memberId);
  }
}

/** The root of queries. */
export class Query {
  constructor(private g: Graph) {}
  currentUser() { return this.g.user ? new UserNode(this.g, this.g.user) : null; }
  echo(args: { text: string }) {
    const who = this.g.user ? JSON.stringify(this.g.user.username) : 'nil';
    return `${who} says: ${args.text}`;
  }
  metadata() {
    if (!this.g.user) return null;
    const m = metadata(this.g.state.instance);
    return { version: m.version, revision: m.revision, enterprise: m.enterprise };
  }
  project(args: { fullPath: string }) {
    const p = this.g.project(args.fullPath);
    return p ? new ProjectNode(this.g, p) : null;
  }
  projects(args: PageArgs & { membership?: boolean; search?: string; ids?: string[]; fullPaths?: string[]; sort?: string }) {
    const read = projectReader(this.g.state, this.g.user, this.g.now);
    const ids = args.ids?.map((i) => gidId(i, 'Project'));
    const search = args.search?.toLowerCase();
    const list = [...tvalues(this.g.state.projects)].filter((p) => {
      if (p.pendingDelete || !read(p)) return false;
      if (ids && !ids.includes(p.id)) return false;
      if (args.fullPaths && !args.fullPaths.includes(projectFullPath(this.g.state, p))) return false;
      if (search && !p.name.toLowerCase().includes(search) && !p.path.toLowerCase().includes(search)) return false;
      if (args.membership && (!this.g.user || !directMembers(this.g.state, p, this.g.now).some((m) => m.userId === this.g.user!.id))) return false;
      return true;
    });
    // Newest first (REST's order_by=id), or the sort asked for.
    list.sort(args.sort ? projectSort(args.sort) : (a, b) => b.id - a.id);
    return new Connection(list.map((p) => new ProjectNode(this.g, p)), args, (n) => n.p.id);
  }
  group(args: { fullPath: string }) {
    const g = this.g.group(args.fullPath);
    return g ? new GroupNode(this.g, g) : null;
  }
  groups(args: PageArgs & { search?: string; sort?: string }) {
    const search = args.search?.toLowerCase();
    const list = [...tvalues(this.g.state.namespaces)].filter(
      (n) => n.kind === 'group' && !n.pendingDelete && canReadGroup(this.g.state, this.g.user, n, this.g.now) && (!search || n.name.toLowerCase().includes(search) || n.path.toLowerCase().includes(search)),
    );
    list.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    return new Connection(list.map((n) => new GroupNode(this.g, n)), args, (n) => n.ns.id, (n) => ({ name: n.ns.name }));
  }
  namespace(args: { fullPath: string }) {
    if (/^\d+$/.test(args.fullPath)) return null;
    const ns = namespaceByIdOrPath(this.g.state, args.fullPath);
    if (!ns || ns.pendingDelete) return null;
    if (ns.kind === 'group') return canReadGroup(this.g.state, this.g.user, ns, this.g.now) ? new GroupNode(this.g, ns) : null;
    // A personal namespace: its owner's, and administrators'.
    return this.g.user && (this.g.user.admin || this.g.user.id === ns.ownerId) ? new NamespaceNode(this.g, ns) : null;
  }
  issue(args: { id: unknown }) {
    const issue = issueById(this.g.state, gidId(args.id, 'Issue'));
    const p = issue && tget(this.g.state.projects, issue.projectId);
    if (!issue || !p || p.pendingDelete || !canReadProject(this.g.state, this.g.user, p, this.g.now)) return null;
    const readable = readableIssue(this.g.state, this.g.user, p, issue.iid, this.g.now);
    return readable ? new IssueNode(this.g, readable) : null;
  }
  /** Resolvers::Wikis::WikiPageResolver: a project's wiki page, or (Premium) a group's by `namespaceId`. */
  wikiPage(args: { slug?: string; projectId?: unknown; namespaceId?: unknown }) {
    if (!args.slug) return null;
    let owner: WikiOwner;
    let path: string;
    if (args.projectId !== undefined && args.projectId !== null) {
      const p = tget(this.g.state.projects, gidId(args.projectId, 'Project'));
      if (!p || !this.g.project(projectFullPath(this.g.state, p)) || !canReadProjectWiki(this.g.state, this.g.user, p, this.g.now)) return null;
      owner = projectWikiOwner(p);
      path = projectFullPath(this.g.state, p);
    } else if (args.namespaceId !== undefined && args.namespaceId !== null) {
      const ns = tget(this.g.state.namespaces, gidId(args.namespaceId, 'Namespace', 'Group'));
      const group = ns ? this.g.group(ns.fullPath) : null;
      if (!group || this.g.state.instance.tier === 'free') return null;
      owner = groupWikiOwner(group);
      path = `groups/${group.fullPath}`;
    } else return null;
    const page = findPage(this.g.state, owner, args.slug);
    if (!page) return null;
    return { id: gid('WikiPage::Meta', page.metaId), slug: slugOf(page), title: titleOf(page), webUrl: `${this.g.webBase}/${path}/-/wikis/${slugOf(page)}` };
  }
  workItem(args: { id: unknown }) {
    const issue = this.issue({ id: gid('Issue', gidId(args.id, 'WorkItem')) });
    return issue ? new WorkItemNode(this.g, issue.i) : null;
  }
  mergeRequest(args: { id: unknown }) {
    const id = gidId(args.id, 'MergeRequest');
    for (const p of tvalues(this.g.state.projects)) {
      const mr = plist(this.g.state.mergeRequests, p.id).find((m) => m.id === id);
      if (!mr) continue;
      if (p.pendingDelete || !canReadProject(this.g.state, this.g.user, p, this.g.now)) return null;
      const readable = readableMergeRequest(this.g.state, this.g.user, p, mr.iid, this.g.now);
      return readable ? new MergeRequestNode(this.g, readable) : null;
    }
    return null;
  }
  user(args: { id?: unknown; username?: string }) {
    if ((args.id === undefined) === (args.username === undefined)) {
      throw new GraphQLError('Provide either a single username or id', { extensions: { code: 'argumentError' } });
    }
    const u = args.id !== undefined ? tget(this.g.state.users, gidId(args.id, 'User')) : findUserByIdOrUsername(this.g.state, args.username!);
    return u && !(args.username !== undefined && /^\d+$/.test(args.username)) && canReadUser(this.g.user, u) ? new UserNode(this.g, u) : null;
  }
  users(args: PageArgs & { ids?: string[]; usernames?: string[]; search?: string; admins?: boolean }) {
    const ids = args.ids?.map((i) => gidId(i, 'User'));
    const search = args.search?.toLowerCase();
    const list = [...tvalues(this.g.state.users)].filter((u) => {
      if (!canReadUser(this.g.user, u)) return false;
      if (ids && !ids.includes(u.id)) return false;
      if (args.usernames && !args.usernames.includes(u.username)) return false;
      if (args.admins && !u.admin) return false;
      if (search && !u.username.toLowerCase().includes(search) && !u.name.toLowerCase().includes(search)) return false;
      return true;
    });
    list.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    return new Connection(list.map((u) => new UserNode(this.g, u)), args, (n) => n.u.id);
  }
}

/** The root of mutations: each runs in one change of the world, so a refused one changes nothing. */
export class Mutation {
  constructor(private g: Graph) {}
  createIssue(args: { input: Record<string, unknown> }) { return mutations.createIssue(this.g, args.input); }
  updateIssue(args: { input: Record<string, unknown> }) { return mutations.updateIssue(this.g, args.input); }
  issueSetDueDate(args: { input: Record<string, unknown> }) { return mutations.issueSetDueDate(this.g, args.input); }
  issueSetAssignees(args: { input: Record<string, unknown> }) { return mutations.issueSetAssignees(this.g, args.input); }
  issueSetConfidential(args: { input: Record<string, unknown> }) { return mutations.issueSetConfidential(this.g, args.input); }
  issueSetLocked(args: { input: Record<string, unknown> }) { return mutations.issueSetLocked(this.g, args.input); }
  issueSetSubscription(args: { input: Record<string, unknown> }) { return mutations.issueSetSubscription(this.g, args.input); }
  createNote(args: { input: Record<string, unknown> }) { return mutations.createNote(this.g, args.input); }
  awardEmojiAdd(args: { input: Record<string, unknown> }) { return moreMutations.awardEmojiAdd(this.g, args.input); }
  pipelineRetry(args: { input: Record<string, unknown> }) { return moreMutations.pipelineRetry(this.g, args.input); }
  pipelineCancel(args: { input: Record<string, unknown> }) { return moreMutations.pipelineCancel(this.g, args.input); }
  mergeRequestAccept(args: { input: Record<string, unknown> }) { return moreMutations.mergeRequestAccept(this.g, args.input); }
  mergeRequestCreate(args: { input: Record<string, unknown> }) { return moreMutations.mergeRequestCreate(this.g, args.input); }
  updateNote(args: { input: Record<string, unknown> }) { return moreMutations.updateNote(this.g, args.input); }
  destroyNote(args: { input: Record<string, unknown> }) { return moreMutations.destroyNote(this.g, args.input); }
  todoMarkDone(args: { input: Record<string, unknown> }) { return moreMutations.todoMarkDone(this.g, args.input); }
  mergeRequestSetDraft(args: { input: Record<string, unknown> }) { return moreMutations.mergeRequestSetDraft(this.g, args.input); }
  mergeRequestSetLabels(args: { input: Record<string, unknown> }) { return moreMutations.mergeRequestSetLabels(this.g, args.input); }
}

