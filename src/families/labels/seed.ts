// Labels of a fixture's groups, then of its projects.
import type { Draft } from 'immer';
import { invalidFixture } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { fixtureGroupPath, fixtureProjectPath, groupWhere, projectWhere, type SeedRun } from '../define.js';
import type { State } from '../world.js';
import { createLabel, DEFAULT_LABEL_COLOR, normalizeColor, validateLabel } from './rules.js';
import type { LabelOwner } from './store.js';
import type { labelSchema, labelsSchema } from './schema.js';

/** A label of a group or a project. */
export type FixtureLabel = Infer<typeof labelSchema>;

export type FixtureLabelsPart = Infer<typeof labelsSchema>;

function seedLabel(draft: Draft<State>, owner: LabelOwner, l: FixtureLabel, now: number, where: string): void {
  const color = normalizeColor(l.color ?? DEFAULT_LABEL_COLOR);
  const errors = validateLabel(draft as State, owner, l.name, color);
  if (Object.keys(errors).length) throw invalidFixture(`${where}: label '${l.name}'`, errors);
  createLabel(draft, owner, { title: l.name, color: color!, description: l.description, priority: owner.projectId !== undefined ? l.priority ?? null : null }, now);
}

export function seedLabels(s: SeedRun): void {
  const groups = s.fixture.groups ?? [];
  const projects = s.fixture.projects ?? [];
  if (!groups.some((g) => g.labels?.length) && !projects.some((p) => p.labels?.length)) return;
  s.update((draft) => {
    for (const g of groups) {
      const id = s.handles.groups[fixtureGroupPath(g)]!.id;
      for (const l of g.labels ?? []) seedLabel(draft, { groupId: id }, l, s.now, groupWhere(g));
    }
    for (const p of projects) {
      const id = s.handles.projects[fixtureProjectPath(p)]!.id;
      for (const l of p.labels ?? []) seedLabel(draft, { projectId: id }, l, s.now, projectWhere(p));
    }
  });
}
