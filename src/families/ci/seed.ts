// The CI part of a fixture: plan limits at the top, variables on the instance, groups and
// projects. A variable GitLab would refuse throws an EmulatorError naming the record.
import { EmulatorError } from '../../core/errors.js';
import { fixtureGroupPath, fixtureProjectPath, groupWhere, projectWhere, type SeedRun } from '../define.js';
import type { State } from '../world.js';
import type { CiLimits, VariableType } from './records.js';
import { createVariable, type VariableOwner } from './variables.js';

/** A variable as the API's create takes it. */
export interface FixtureVariable {
  key: string;
  value: string;
  variable_type?: VariableType;
  protected?: boolean;
  masked?: boolean;
  masked_and_hidden?: boolean;
  raw?: boolean;
  environment_scope?: string;
  description?: string;
}

export interface FixtureCiTopPart {
  /** Plan limits: `{ project_ci_variables: 1 }`. */
  ci_limits?: Partial<CiLimits>;
  /** Instance-level variables (`/admin/ci/variables`). */
  instance_variables?: Omit<FixtureVariable, 'environment_scope' | 'masked_and_hidden'>[];
}

export interface FixtureVariablesPart {
  variables?: FixtureVariable[];
}

function seedVariables(draft: State, owner: VariableOwner, list: readonly FixtureVariable[], where: string): void {
  for (const v of list) {
    try {
      createVariable(draft, owner, v)(draft);
    } catch (err) {
      const body = (err as { body?: { message?: unknown } }).body;
      throw new EmulatorError(`${where}: variable '${v.key}' is invalid: ${JSON.stringify(body?.message ?? String(err))}`);
    }
  }
}

export function seedCiVariables(s: SeedRun): void {
  const f = s.fixture;
  s.update((draft) => {
    const state = draft as State;
    for (const [k, v] of Object.entries(f.ci_limits ?? {})) {
      if (!(k in state.ciLimits) || !Number.isInteger(v) || (v as number) < 0) throw new EmulatorError(`ci_limits.${k} is not a known limit of 0 or more`);
      (state.ciLimits as unknown as Record<string, number>)[k] = v as number;
    }
    seedVariables(state, { kind: 'instance', id: 0 }, f.instance_variables ?? [], 'instance_variables');
    for (const g of f.groups ?? []) {
      const id = s.handles.groups[fixtureGroupPath(g)]!.id;
      seedVariables(state, { kind: 'group', id }, g.variables ?? [], groupWhere(g));
    }
    for (const p of f.projects ?? []) {
      const id = s.handles.projects[fixtureProjectPath(p)]!.id;
      seedVariables(state, { kind: 'project', id }, p.variables ?? [], projectWhere(p));
    }
  });
}
