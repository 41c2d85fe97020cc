// Labels::PromoteService: a project label becomes its group's. The group's label of that title
// is used when there is one, else one is made with the label's colour and description; every
// label of that title in the group's projects is then merged into it (what carries them, the
// subscriptions) and deleted.
import type { Draft } from 'immer';
import { tdel, tentries, tget, tset, tvalues } from '../../store/table.js';
import type { Namespace } from '../../store/state.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import type { Label } from './records.js';
import { createLabel, labelByTitle } from './rules.js';
import { ownerKey } from './store.js';
import { relabelAll } from './uses.js';

export function promoteLabel(label: Label, group: Namespace, now: number): Change<Label> {
  return (draft) => {
    const state = draft as State;
    const groupLabel = labelByTitle(state, { groupId: group.id }, label.title)
      ?? createLabel(draft, { groupId: group.id }, { title: label.title, color: label.color, description: label.description }, now);
    const merged: Label[] = [];
    for (const p of tvalues(state.projects)) {
      if (p.namespaceId !== group.id) continue;
      const l = labelByTitle(state, { projectId: p.id }, label.title);
      if (l) merged.push(l);
    }
    for (const l of merged) {
      relabelAll(draft, l, groupLabel);
      moveSubscriptions(draft, l, groupLabel);
      tdel(draft.labels, l.id);
      const titles = tget(draft.labelTitles, ownerKey({ projectId: l.projectId! }));
      if (titles) tdel(titles, l.title);
    }
    return groupLabel;
  };
}

function moveSubscriptions(draft: Draft<State>, from: Label, to: Label): void {
  const keys = [...tentries(draft.labelSubscriptions as State['labelSubscriptions'])].map(([key]) => key).filter((key) => key.startsWith(`${from.id}:`));
  for (const key of keys) {
    tdel(draft.labelSubscriptions, key);
    tset(draft.labelSubscriptions, `${to.id}:${key.slice(key.indexOf(':') + 1)}`, true);
  }
}
