// Groups::CreateService, UpdateService and DestroyService: each checks against the world as it
// is, then returns the change that applies it and hands back the group it made.
import { validationFailed } from '../../core/errors.js';
import type { Namespace } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { plain, schedule, type Change } from '../define.js';
import { emit } from '../stream.js';
import type { State } from '../world.js';
import { groupNotSaved } from './errors.js';
import { DESTROY_GROUP, changeGroupPath, createGroup, validateGroup, type GroupInput } from './rules.js';

/** Groups::CreateService: an invalid group is `Failed to save group {...}` (400). */
export function newGroup(state: State, input: GroupInput, now: number): Change<Namespace> {
  const errors = validateGroup(state, input);
  if (Object.keys(errors).length) throw groupNotSaved(errors);
  return (draft) => {
    const made = plain(createGroup(draft as State, input, now));
    emit(draft, { kind: 'group.created', groupId: made.id });
    return made;
  };
}

/** What a caller may change of a group; absent fields keep what is there. */
export interface GroupChanges {
  name?: string;
  path?: string;
  description?: string;
  visibility?: Namespace['visibility'];
  requestAccessEnabled?: boolean;
  projectCreationLevel?: Namespace['projectCreationLevel'];
  subgroupCreationLevel?: Namespace['subgroupCreationLevel'];
}

/** Groups::UpdateService: the group's validations over what it would become (400); a new path moves everything below. */
export function updateGroup(state: State, group: Namespace, changes: GroupChanges, now: number): Change<Namespace> {
  const input = {
    name: changes.name ?? group.name, path: changes.path ?? group.path, parentId: group.parentId,
    visibility: changes.visibility ?? group.visibility, description: changes.description ?? group.description,
  };
  const errors = validateGroup(state, input, group);
  if (Object.keys(errors).length) throw validationFailed(errors);
  return (draft) => {
    if (input.path !== group.path) {
      changeGroupPath(draft as State, group.id, input.path);
      emit(draft, { kind: 'group.renamed', groupId: group.id, oldFullPath: group.fullPath });
    }
    const g = tget(draft.namespaces, group.id)!;
    if (changes.name !== undefined) g.name = changes.name;
    if (changes.description !== undefined) g.description = changes.description;
    if (changes.visibility !== undefined) g.visibility = changes.visibility;
    if (changes.requestAccessEnabled !== undefined) g.requestAccessEnabled = changes.requestAccessEnabled;
    if (changes.projectCreationLevel !== undefined) g.projectCreationLevel = changes.projectCreationLevel;
    if (changes.subgroupCreationLevel !== undefined) g.subgroupCreationLevel = changes.subgroupCreationLevel;
    g.updatedAt = now;
    return plain(g);
  };
}

/** Hidden at once, removed with its subgroups and projects by a background job. */
export function scheduleGroupDeletion(group: Namespace, now: number): Change {
  return (draft) => {
    tget(draft.namespaces, group.id)!.pendingDelete = true;
    emit(draft, { kind: 'group.destroyed', groupId: group.id, fullPath: group.fullPath, name: group.name });
    schedule(draft, DESTROY_GROUP, now, { groupId: group.id });
  };
}
