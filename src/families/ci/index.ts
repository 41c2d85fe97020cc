// CI/CD: variables of projects, groups and the instance; pipelines and jobs as data, their
// artifacts expiring on the clock; job tokens.
import { emptyTable, tdel } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import { DEFAULT_CI_LIMITS } from './records.js';
import { seedCiVariables, type FixtureCiTopPart, type FixtureVariablesPart } from './seed.js';
import { variableRoutes } from './variable-routes.js';
import type { VariablesSlice } from './variables.js';

export type CiSlice = VariablesSlice;

export const ci: Family<CiSlice, { top: FixtureCiTopPart; group: FixtureVariablesPart; project: FixtureVariablesPart }> = defineFamily({
  name: 'ci',
  state: () => ({
    projectVariables: emptyTable(),
    projectVariableKeys: emptyTable(),
    groupVariables: emptyTable(),
    groupVariableKeys: emptyTable(),
    instanceVariables: emptyTable(),
    instanceVariableKeys: emptyTable(),
    ciLimits: { ...DEFAULT_CI_LIMITS },
  }),
  seed: { after: ['groups', 'projects'], run: seedCiVariables },
  routes: [...variableRoutes],
  forget: {
    project: (draft, id) => void (tdel(draft.projectVariables, id), tdel(draft.projectVariableKeys, id)),
    group: (draft, id) => void (tdel(draft.groupVariables, id), tdel(draft.groupVariableKeys, id)),
  },
});

export type { CiVariable, CiLimits } from './records.js';
export type { FixtureVariable } from './seed.js';
