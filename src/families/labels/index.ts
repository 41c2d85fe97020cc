// Labels of projects and groups: a near-leaf that issues, merge requests and epics carry; what
// carries them registers itself (registerLabelUse) for the counts and for a label's deletion.
import { defineFamily, type Family } from '../define.js';
import { labelRoutes } from './routes.js';
import { labelsSchema } from './schema.js';
import { seedLabels, type FixtureLabelsPart } from './seed.js';
import { emptyLabelsSlice, forgetLabels, type LabelsSlice } from './store.js';

declare module '../world.js' {
  interface Slices extends LabelsSlice {}
  interface FixtureGroupParts extends FixtureLabelsPart {}
  interface FixtureProjectParts extends FixtureLabelsPart {}
}

export const labels: Family<LabelsSlice> = defineFamily({
  name: 'labels',
  schema: { group: labelsSchema, project: labelsSchema },
  state: emptyLabelsSlice,
  seed: { after: ['groups', 'projects'], run: seedLabels },
  routes: labelRoutes,
  forget: { project: (draft, id) => forgetLabels(draft, { projectId: id }), group: (draft, id) => forgetLabels(draft, { groupId: id }) },
});

export type { LabelsSlice, LabelOwner } from './store.js';
export type { Label } from './records.js';
export type { FixtureLabel, FixtureLabelsPart } from './seed.js';
export {
  availableLabel, createLabel, DEFAULT_LABEL_COLOR, findOrCreateLabels, groupLabelOwners, labelById, labelByTitle, normalizeColor, ownLabels,
  projectLabelOwners, projectLabelsTitled, textColor, validateLabel, type LabelInput,
} from './rules.js';
export { labelBasic } from './entity.js';
export { registerLabelUse, type LabelCounts, type LabelUse } from './uses.js';
