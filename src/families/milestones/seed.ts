// The milestones of a fixture's groups and projects; `iid`s follow the order given.
import { invalidFixture } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { fixtureGroupPath, fixtureProjectPath, groupWhere, projectWhere, type SeedRun } from '../define.js';
import type { State } from '../world.js';
import { createMilestone, titleTaken, validateMilestone, type MilestoneOwner } from './rules.js';
import type { milestoneSchema, milestonesSchema } from './schema.js';

/** A milestone of a project or a group. */
export type FixtureMilestone = Infer<typeof milestoneSchema>;

export type FixtureMilestonesPart = Infer<typeof milestonesSchema>;

export function seedMilestones(s: SeedRun): void {
  const owners = [...(s.fixture.groups ?? []), ...(s.fixture.projects ?? [])];
  if (!owners.some((o) => o.milestones?.length)) return;
  s.update((draft) => {
    for (const g of s.fixture.groups ?? []) {
      const id = s.handles.groups[fixtureGroupPath(g)]!.id;
      for (const m of g.milestones ?? []) seedMilestone(draft, { groupId: id }, m, s.now, groupWhere(g));
    }
    for (const p of s.fixture.projects ?? []) {
      const id = s.handles.projects[fixtureProjectPath(p)]!.id;
      for (const m of p.milestones ?? []) seedMilestone(draft, { projectId: id }, m, s.now, projectWhere(p));
    }
  });
}

function seedMilestone(draft: State, owner: MilestoneOwner, m: FixtureMilestone, now: number, where: string): void {
  const errors = validateMilestone((t) => titleTaken(draft, [owner], t), m.title, m.start_date ?? null, m.due_date ?? null);
  if (Object.keys(errors).length) throw invalidFixture(`${where}: milestone '${m.title}'`, errors);
  const milestone = createMilestone(draft, owner, { title: m.title, description: m.description, dueDate: m.due_date, startDate: m.start_date }, now);
  if (m.state === 'closed') milestone.state = 'closed';
}
