// Projects::TransferService and Groups::TransferService: a project to another namespace, a group
// under another parent (or to the top level), with GitLab's checks and messages; what moves
// lowers its visibility to its new parent's, and the old paths redirect (the `renamed` events).
import { messageError } from '../../core/errors.js';
import { canReadGroup, groupAccess, isWithin } from '../../policy/access.js';
import { VISIBILITY_ORDER } from '../../policy/visibility.js';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
import { changeGroupPath, canCreateGroupIn } from '../groups/index.js';
import { canCreateProjectIn, canOwnProject, moveToNamespace } from '../projects/index.js';
import { emit } from '../stream.js';
import { plain, type Change } from '../define.js';
import type { State } from '../world.js';

const projectError = (text: string) => messageError(400, `Failed to transfer project {:new_namespace=>[${JSON.stringify(text)}]}`);
const groupError = (text: string) => messageError(400, `Transfer failed: ${text}`);

/** `transfer_projects`: creating projects there, and for a group at least the Maintainer role in it. */
function canTransferInto(state: State, user: User, to: Namespace, now: number): boolean {
  if (!canCreateProjectIn(state, user, to.id, now)) return false;
  return to.kind !== 'group' || user.admin || groupAccess(state, user, to, now) >= ACCESS.maintainer;
}

const fullPathOf = (state: State, p: Project) => `${tget(state.namespaces, p.namespaceId)!.fullPath}/${p.path}`;

/** Projects::TransferService#execute's checks, in its order. */
export function transferProject(state: State, user: User, project: Project, to: Namespace, now: number): Change<Project> {
  if (to.id === project.namespaceId) throw projectError('Project is already in this namespace.');
  if (!canOwnProject(state, user, project, now)) throw projectError("You don't have permission to transfer this project.");
  if (!canTransferInto(state, user, to, now)) throw projectError("You don't have permission to transfer projects into that namespace.");
  const clash = [...tvalues(state.projects)].some(
    (p) => p.namespaceId === to.id && p.id !== project.id && (p.path.toLowerCase() === project.path.toLowerCase() || p.name === project.name),
  );
  if (clash || tget(state.paths, `${to.fullPath}/${project.path}`.toLowerCase())) throw projectError('Project with same name or path in target namespace already exists');
  return (draft) => {
    const s = draft as State;
    const d = tget(s.projects, project.id)!;
    const oldFullPath = fullPathOf(s, d);
    moveToNamespace(s, d, to.id);
    if (to.kind === 'group' && VISIBILITY_ORDER[d.visibility] > VISIBILITY_ORDER[to.visibility]) d.visibility = to.visibility;
    d.updatedAt = now;
    emit(draft, { kind: 'project.renamed', projectId: project.id, oldFullPath });
    return plain(d);
  };
}

/** The namespaces a project's owner may move it to (`transfer_projects`): groups they may create projects in, but its own. */
export function projectTransferLocations(state: State, user: User, project: Project, now: number): Namespace[] {
  return [...tvalues(state.namespaces)]
    .filter((g) => g.kind === 'group' && !g.pendingDelete && g.id !== project.namespaceId && canTransferInto(state, user, g, now))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Groups::TransferService#ensure_allowed_transfer, in its order. */
export function transferGroup(state: State, user: User, group: Namespace, parent: Namespace | undefined, now: number): Change<Namespace> {
  if (!parent && group.parentId === null) throw groupError('Group is already a root group.');
  if (parent && parent.id === group.parentId) throw groupError('Group is already associated to the parent group.');
  if (!canCreateGroupIn(state, user, parent, now)) throw groupError("You don't have enough permissions.");
  const newFull = parent ? `${parent.fullPath}/${group.path}` : group.path;
  if (tget(state.paths, newFull.toLowerCase())) throw groupError('The parent group already has a subgroup or a project with the same path.');
  if (parent && isWithin(state, parent.id, group.id)) throw groupError('Cannot transfer group to one of its subgroup.');
  return (draft) => {
    const s = draft as State;
    const oldFullPath = group.fullPath;
    tget(s.namespaces, group.id)!.parentId = parent ? parent.id : null;
    changeGroupPath(s, group.id, group.path);
    if (parent) {
      // Groups::TransferService#update_visibility_levels: nothing moved is more visible than its new parent.
      const ceiling = VISIBILITY_ORDER[parent.visibility];
      for (const ns of tvalues(s.namespaces))
        if (ns.kind === 'group' && isWithin(s, ns.id, group.id) && VISIBILITY_ORDER[ns.visibility] > ceiling) ns.visibility = parent.visibility;
      for (const p of tvalues(s.projects)) if (isWithin(s, p.namespaceId, group.id) && VISIBILITY_ORDER[p.visibility] > ceiling) p.visibility = parent.visibility;
    }
    const g = tget(s.namespaces, group.id)!;
    g.updatedAt = now;
    emit(draft, { kind: 'group.renamed', groupId: group.id, oldFullPath });
    return plain(g);
  };
}

/** Groups::AcceptingGroupTransfersFinder: groups the caller may create subgroups in, but the group, those below it and its parent. */
export function groupTransferLocations(state: State, user: User, group: Namespace, now: number): Namespace[] {
  return [...tvalues(state.namespaces)]
    .filter((g) => g.kind === 'group' && !g.pendingDelete && g.id !== group.parentId && !isWithin(state, g.id, group.id) && canReadGroup(state, user, g, now) && canCreateGroupIn(state, user, g, now))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}
