// Milestones::PromoteService: a project milestone becomes its group's. A group milestone is made
// with its title, description and dates; the issues and merge requests of every milestone of that
// title in the group's projects move to it, and those milestones go.
import { messageError } from '../../core/errors.js';
import { pdel, pget, plist, tvalues } from '../../store/table.js';
import type { Namespace } from '../../store/state.js';
import { emit } from '../stream.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import type { Milestone } from './records.js';
import { createMilestone } from './rules.js';
import { moveMilestoneUses } from './uses.js';

const failed = (message: string) => messageError(400, `Promotion failed - ${message}`);

export function promoteMilestone(state: State, milestone: Milestone, group: Namespace, now: number): Change<Milestone> {
  if (milestone.projectId === null) throw failed('Only project milestones can be promoted.');
  if (pget(state.groupMilestoneTitles, group.id, milestone.title) !== undefined) throw failed('Title already being used for another group or project milestone.');
  return (draft) => {
    const d = draft as State;
    const merged: Milestone[] = [];
    for (const p of tvalues(d.projects)) {
      if (p.namespaceId !== group.id) continue;
      for (const m of plist(d.projectMilestones, p.id)) if (m.title === milestone.title) merged.push(m);
    }
    const groupMilestone = createMilestone(d, { groupId: group.id }, { title: milestone.title, description: milestone.description, dueDate: milestone.dueDate, startDate: milestone.startDate }, now);
    const byProject = new Map<number, Set<number>>();
    for (const m of merged) {
      const set = byProject.get(m.projectId!) ?? new Set<number>();
      set.add(m.id);
      byProject.set(m.projectId!, set);
    }
    for (const [projectId, ids] of byProject) moveMilestoneUses(draft, projectId, ids, groupMilestone.id);
    for (const m of merged) {
      pdel(d.projectMilestones, m.projectId!, m.id);
      if (pget(d.projectMilestoneTitles, m.projectId!, m.title) === m.id) pdel(d.projectMilestoneTitles, m.projectId!, m.title);
      emit(draft, { kind: 'milestone.destroyed', projectId: m.projectId!, milestoneId: m.id });
    }
    return groupMilestone;
  };
}
