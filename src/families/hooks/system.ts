// System hooks' events (SystemHooksService, lib/gitlab/hook_data/*_builder.rb,
// doc/administration/system_hooks.md): projects, groups and users created, renamed and
// destroyed, members added, changed and removed; and the group hooks' own (Premium): member
// events of a group, its subgroups and its projects created and destroyed.
import { membersOf, membershipOf } from '../../store/members.js';
import { pget, tget } from '../../store/table.js';
import type { PushChange } from '../stream.js';
import { userAvatarUrl } from '../users/index.js';
import { executable } from './rules.js';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import type { Context } from '../define.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import { projectHookAttrs, xmlschema, type Json } from './payloads.js';
import { enqueue, groupHooksFor, systemHooksFor, type HookScope } from './queue.js';
import type { Hook } from './records.js';

/** Gitlab::Access.human_access. */
const ACCESS_NAMES: Record<number, string> = { 5: 'Minimal Access', 10: 'Guest', 15: 'Planner', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };


function queue(ctx: Context<unknown>, hooks: readonly Hook[], scope: HookScope, data: Json): void {
  if (hooks.length === 0) return;
  enqueue(ctx, hooks, { scope, instanceUrl: ctx.webBase, build: () => data });
}

/** What SystemHooksService says of a project (`project_data`). */
function projectData(state: State, project: Project, fullPath: string): Json {
  const ns = tget(state.namespaces, project.namespaceId);
  const ownerUser = ns?.kind === 'user' && ns.ownerId !== null ? tget(state.users, ns.ownerId) : undefined;
  const owners: User[] = ownerUser
    ? [ownerUser]
    : ns
      ? [...membersOf(state, ns)].filter((m) => m.accessLevel === ACCESS.owner).flatMap((m) => tget(state.users, m.userId) ?? [])
      : [];
  return {
    name: project.name,
    path: project.path,
    path_with_namespace: fullPath,
    project_id: project.id,
    project_namespace_id: project.namespaceId,
    owner_name: ownerUser?.name ?? ns?.name ?? '',
    owner_email: ownerUser?.email ?? '',
    owners: owners.map((u) => ({ name: u.name, email: u.email })),
    project_visibility: project.visibility,
  };
}

const fullPathOf = (state: State, p: Project) => `${tget(state.namespaces, p.namespaceId)?.fullPath ?? ''}/${p.path}`;

function onProject(ctx: Context<unknown>, e: StoredEvent<'project.created' | 'project.renamed' | 'project.destroyed'>): void {
  const state = e.kind === 'project.destroyed' ? (ctx.initial as State) : ctx.state;
  const project = tget(state.projects, e.projectId);
  if (!project) {
    // Deleted by timed work: what the event itself says.
    if (e.kind === 'project.destroyed') {
      const [path] = e.fullPath.split('/').slice(-1);
      queue(ctx, systemHooksFor(ctx.state), 'system_hooks', { event_name: 'project_destroy', name: e.name, path, path_with_namespace: e.fullPath, project_id: e.projectId });
    }
    return;
  }
  const full = e.kind === 'project.destroyed' ? e.fullPath : fullPathOf(state, project);
  const event = { 'project.created': 'project_create', 'project.renamed': 'project_rename', 'project.destroyed': 'project_destroy' }[e.kind];
  const data: Json = { created_at: xmlschema(project.createdAt), updated_at: xmlschema(project.updatedAt), event_name: event, ...projectData(state, project, full) };
  if (e.kind === 'project.renamed') data.old_path_with_namespace = e.oldFullPath;
  queue(ctx, systemHooksFor(ctx.state), 'system_hooks', data);
  // A group's hooks with project events hear of its projects created and destroyed (EE).
  if (e.kind !== 'project.renamed') {
    const ns = tget(state.namespaces, project.namespaceId);
    if (ns?.kind === 'group') queue(ctx, groupHooksFor(ctx.state, ns.id, 'project_hooks', ctx.now()), 'project_hooks', data);
  }
}

function groupData(g: Namespace): Json {
  return { name: g.name, path: g.path, full_path: g.fullPath, group_id: g.id };
}

function onGroup(ctx: Context<unknown>, e: StoredEvent<'group.created' | 'group.renamed' | 'group.destroyed'>): void {
  const state = e.kind === 'group.destroyed' ? (ctx.initial as State) : ctx.state;
  const group = tget(state.namespaces, e.groupId);
  if (!group) {
    if (e.kind === 'group.destroyed') {
      const path = e.fullPath.split('/').pop();
      queue(ctx, systemHooksFor(ctx.state), 'system_hooks', { event_name: 'group_destroy', name: e.name, path, full_path: e.fullPath, group_id: e.groupId });
    }
    return;
  }
  const event = { 'group.created': 'group_create', 'group.renamed': 'group_rename', 'group.destroyed': 'group_destroy' }[e.kind];
  const data: Json = { created_at: xmlschema(group.createdAt), updated_at: xmlschema(group.updatedAt), event_name: event, ...groupData(group) };
  if (e.kind === 'group.renamed') {
    data.old_path = e.oldFullPath.split('/').pop();
    data.old_full_path = e.oldFullPath;
  }
  queue(ctx, systemHooksFor(ctx.state), 'system_hooks', data);
  // A subgroup made or removed: the hooks of the groups above it with subgroup events (EE).
  if (e.kind !== 'group.renamed' && group.parentId !== null) {
    const parent = tget(state.namespaces, group.parentId);
    if (parent) {
      const sub: Json = {
        created_at: xmlschema(group.createdAt), updated_at: xmlschema(group.updatedAt), event_name: e.kind === 'group.created' ? 'subgroup_create' : 'subgroup_destroy',
        name: group.name, path: group.path, full_path: group.fullPath, group_id: group.id,
        parent_group_id: parent.id, parent_name: parent.name, parent_path: parent.path, parent_full_path: parent.fullPath,
      };
      queue(ctx, groupHooksFor(ctx.state, parent.id, 'subgroup_hooks', ctx.now()), 'subgroup_hooks', sub);
    }
  }
}

function onUser(ctx: Context<unknown>, e: StoredEvent<'user.created' | 'user.renamed' | 'user.destroyed'>): void {
  const state = e.kind === 'user.destroyed' ? (ctx.initial as State) : ctx.state;
  const user = tget(state.users, e.userId);
  if (!user) return;
  const event = { 'user.created': 'user_create', 'user.renamed': 'user_rename', 'user.destroyed': 'user_destroy' }[e.kind];
  const data: Json = { created_at: xmlschema(user.createdAt), updated_at: xmlschema(user.updatedAt), email: user.email, event_name: event, name: user.name, username: user.username, user_id: user.id };
  if (e.kind === 'user.renamed') data.old_username = e.oldUsername;
  queue(ctx, systemHooksFor(ctx.state), 'system_hooks', data);
}

/** Gitlab::HookData::UserBuilder for `:failed_login` (BlockedUserTracker): the user and its state. */
function onFailedLogin(ctx: Context<unknown>, e: StoredEvent<'user.failed_login'>): void {
  const user = tget(ctx.state.users, e.userId);
  if (!user) return;
  const data: Json = {
    created_at: xmlschema(user.createdAt), updated_at: xmlschema(user.updatedAt), event_name: 'user_failed_login',
    name: user.name, email: user.email, user_id: user.id, username: user.username, state: user.state,
  };
  queue(ctx, systemHooksFor(ctx.state), 'system_hooks', data);
}

/** SystemHooksService for a Key: `key_create` and `key_destroy`. */
function onKey(ctx: Context<unknown>, e: StoredEvent<'key.created' | 'key.destroyed'>): void {
  const state = e.kind === 'key.destroyed' ? (ctx.initial as State) : ctx.state;
  const key = pget(state.sshKeys, e.userId, e.keyId);
  const user = tget(state.users, e.userId);
  if (!key || !user) return;
  const data: Json = {
    event_name: e.kind === 'key.created' ? 'key_create' : 'key_destroy', created_at: xmlschema(key.createdAt), updated_at: xmlschema(key.createdAt),
    username: user.username, key: key.key, id: key.id,
  };
  queue(ctx, systemHooksFor(ctx.state), 'system_hooks', data);
}

const BLANK_SHA = '0'.repeat(40);

/**
 * PostReceive#after_project_changes_hooks: a push over git tells the system hooks that take
 * repository update events what moved (Gitlab::DataBuilder::Repository.update), once per push.
 */
export async function repositoryUpdate(ctx: Context<unknown>): Promise<string[]> {
  const user = ctx.user;
  const hooks = systemHooksFor(ctx.state).filter((h) => h.events.repository_update_events && executable(h, ctx.now()));
  if (!user || hooks.length === 0) return [];
  const byProject = new Map<number, PushChange[]>();
  for (const e of ctx.state.pendingEvents) {
    if (e.kind !== 'push') continue;
    const list = byProject.get(e.projectId);
    if (list) list.push(e);
    else byProject.set(e.projectId, [e]);
  }
  for (const [projectId, pushes] of byProject) {
    const project = tget(ctx.state.projects, projectId);
    if (!project) continue;
    const refs = pushes.map((p) => `refs/${p.refType === 'tag' ? 'tags' : 'heads'}/${p.ref}`);
    const data: Json = {
      event_name: 'repository_update', user_id: user.id, user_name: user.name, user_email: user.email, user_avatar: userAvatarUrl(user, ctx),
      project_id: project.id, project: projectHookAttrs(ctx.state, project, ctx.webBase),
      changes: pushes.map((p, i) => ({ before: p.before ?? BLANK_SHA, after: p.after ?? BLANK_SHA, ref: refs[i]! })), refs,
    };
    queue(ctx, hooks, 'repository_update_hooks', data);
  }
  return [];
}

const MEMBER_EVENTS = {
  project: { 'member.added': 'user_add_to_team', 'member.updated': 'user_update_for_team', 'member.removed': 'user_remove_from_team' },
  group: { 'member.added': 'user_add_to_group', 'member.updated': 'user_update_for_group', 'member.removed': 'user_remove_from_group' },
} as const;

function onMember(ctx: Context<unknown>, e: StoredEvent<'member.added' | 'member.updated' | 'member.removed'>): void {
  const state = e.kind === 'member.removed' ? (ctx.initial as State) : ctx.state;
  const user = tget(state.users, e.userId);
  if (!user) return;
  const source = e.source === 'project' ? tget(state.projects, e.sourceId) : tget(state.namespaces, e.sourceId);
  if (!source) return;
  const member = membershipOf(state, e.source === 'project' ? { type: 'project', id: e.sourceId } : { type: 'namespace', id: e.sourceId }, e.userId);
  const times = { created_at: xmlschema(member?.createdAt ?? ctx.now()), updated_at: xmlschema(member?.updatedAt ?? member?.createdAt ?? ctx.now()) };
  const who = { user_username: user.username, user_name: user.name, user_email: user.email, user_id: user.id };
  if (e.source === 'project') {
    const project = source as Project;
    const data: Json = {
      ...times, event_name: MEMBER_EVENTS.project[e.kind], access_level: ACCESS_NAMES[e.accessLevel] ?? String(e.accessLevel), project_id: project.id,
      project_name: project.name, project_path: project.path, project_path_with_namespace: fullPathOf(state, project), ...who, project_visibility: project.visibility,
    };
    queue(ctx, systemHooksFor(ctx.state), 'system_hooks', data);
    return;
  }
  const group = source as Namespace;
  const data: Json = {
    ...times, event_name: MEMBER_EVENTS.group[e.kind], group_access: ACCESS_NAMES[e.accessLevel] ?? String(e.accessLevel), group_id: group.id,
    group_name: group.name, group_path: group.path, ...who,
  };
  queue(ctx, systemHooksFor(ctx.state), 'system_hooks', data);
  // Gitlab::HookData::GroupMemberBuilder, for the group's hooks with member events (EE).
  const memberHook: Json = { ...times, group_name: group.name, group_path: group.path, group_id: group.id, ...who, group_access: data.group_access, group_plan: null, expires_at: member?.expiresAt ?? null, event_name: data.event_name };
  queue(ctx, groupHooksFor(ctx.state, group.id, 'member_hooks', ctx.now()), 'member_hooks', memberHook);
}

export const systemSubscribers = {
  'project.created': onProject,
  'project.renamed': onProject,
  'project.destroyed': onProject,
  'group.created': onGroup,
  'group.renamed': onGroup,
  'group.destroyed': onGroup,
  'user.created': onUser,
  'user.renamed': onUser,
  'user.destroyed': onUser,
  'user.failed_login': onFailedLogin,
  'member.added': onMember,
  'member.updated': onMember,
  'member.removed': onMember,
  'key.created': onKey,
  'key.destroyed': onKey,
};
