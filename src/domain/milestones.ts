// Milestones of projects and groups (app/models/milestone.rb, app/models/concerns/timebox.rb,
// app/services/milestones/create_service.rb). A milestone lives in its owner's record; `iid`
// counts per owner.
import { nextId, type Milestone, type State } from '../store/state.js';

export interface MilestoneInput {
  title: string;
  description?: string | null;
  dueDate?: string | null;
  startDate?: string | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Timebox validations: a title, not used by a milestone of the same project or group (the
 * caller passes those), dates of four-digit years, and a start before the due date.
 */
export function validateMilestone(existing: readonly Milestone[], title: string, startDate: string | null, dueDate: string | null): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (title.trim() === '') add('title', "can't be blank");
  else if (existing.some((m) => m.title === title)) add('title', 'already being used for another group or project milestone.');
  for (const [key, value] of [['start_date', startDate], ['due_date', dueDate]] as const) {
    if (value !== null && (!DATE.test(value) || Number.isNaN(Date.parse(value)))) add(key, 'is invalid');
  }
  if (startDate && dueDate && !errors.start_date && !errors.due_date && dueDate < startDate) add('due_date', 'must be greater than start date');
  return errors;
}

/** A new active milestone; the caller stores it in the owner's `milestones`. */
export function createMilestone(draft: State, owner: { projectId?: number; groupId?: number }, input: MilestoneInput, now: number): Milestone {
  const key = owner.projectId !== undefined ? `milestone_iid:p${owner.projectId}` : `milestone_iid:g${owner.groupId}`;
  return {
    id: nextId(draft, 'milestone'),
    iid: nextId(draft, key),
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
}
