// Epics as the issuables family sees them: what a note touches and their quick actions;
// registered when the family loads.
import type { Namespace } from '../../store/state.js';
import { pget, pset, tget } from '../../store/table.js';
import type { IssuableKind, TodoKind } from '../issuables/index.js';
import { epicEntity } from './entity.js';
import { epicById, readableEpic } from './rules.js';
import type { State } from '../world.js';
import { epicCommands } from './note-commands.js';
import type { Epic } from './records.js';

/** An epic with its group: what notes and quick actions take. */
export type EpicTarget = { type: 'Epic'; epic: Epic; group: Namespace };

export const epicKind: IssuableKind<EpicTarget> = {
  type: 'Epic',
  touch(draft, target, now) {
    const state = draft as State;
    const at = tget(state.epicLocations, target.epic.id);
    const epic = at && pget(state.epics, at.groupId, at.iid);
    if (at && epic) pset(draft.epics, at.groupId, at.iid, { ...epic, updatedAt: now });
  },
  locked: () => false,
  commands: epicCommands,
};

/** An epic's to-do: readable while the epic is and its group may be read; its target is the epic's entity. */
export const epicTodos: TodoKind = {
  readable: (state, user, todo, now) => {
    const group = todo.groupId === undefined ? undefined : tget(state.namespaces, todo.groupId);
    return !!group && readableEpic(state, user, group, todo.targetId, now) !== undefined;
  },
  render: (ctx, todo) => {
    const epic = epicById(ctx.state, todo.targetId);
    if (!epic) return null;
    const target = epicEntity(ctx.state, epic, ctx, null);
    return { target, url: target.web_url, body: epic.title };
  },
};
