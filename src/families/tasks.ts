// Timed work, by kind: what runs when the clock passes a task's time. Tasks are data in the
// world (so snapshots include them); their behaviour lives here.
import type { State, Task } from '../store/state.js';
import { tdel, tget } from '../store/table.js';
import { destroyProject, projectsIn } from './projects/rules.js';
import { subgroups } from './groups/rules.js';
import { addEvidence, EVIDENCE_TASK } from './releases/rules.js';

export type TaskRunner = (draft: State, payload: Record<string, unknown>, now: number) => void;

function destroyGroup(draft: State, id: number): void {
  const group = tget(draft.namespaces, id);
  if (!group) return;
  for (const sub of subgroups(draft, id)) destroyGroup(draft, sub.id);
  for (const p of projectsIn(draft, id)) destroyProject(draft, p.id);
  tdel(draft.paths, group.fullPath.toLowerCase());
  tdel(draft.namespaces, id);
}

export const TASKS: Record<string, TaskRunner> = {
  'project.destroy': (draft, payload) => destroyProject(draft, payload.projectId as number),
  'group.destroy': (draft, payload) => destroyGroup(draft, payload.groupId as number),
  [EVIDENCE_TASK]: (draft, payload, now) =>
    void addEvidence(draft, payload.projectId as number, payload.tagName as string, payload.summary, payload.sha as string, now),
};

/** Tasks due at `now`, earliest first. */
export function dueTasks(state: State, now: number): Task[] {
  return state.tasks.filter((t) => t.at <= now).sort((a, b) => a.at - b.at || a.id - b.id);
}
