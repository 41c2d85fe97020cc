// Custom attributes of users, projects and groups, for administrators.
import { emptyTable, type Partitioned } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import { customAttributeRoutes } from './routes.js';
import { forget } from './rules.js';

export interface CustomAttributesSlice {
  /** Project id -> its custom attributes, value by key. */
  projectCustomAttributes: Partitioned<string>;
  /** Group id -> its custom attributes, value by key. */
  groupCustomAttributes: Partitioned<string>;
}

declare module '../world.js' {
  interface Slices extends CustomAttributesSlice {}
}

export const customAttributes: Family<CustomAttributesSlice> = defineFamily({
  name: 'custom-attributes',
  state: () => ({ projectCustomAttributes: emptyTable(), groupCustomAttributes: emptyTable() }),
  routes: customAttributeRoutes,
  forget: {
    project: (draft, id) => forget(draft as State, 'project', id),
    group: (draft, id) => forget(draft as State, 'group', id),
  },
});

export { attributesOf, hasAttributes } from './rules.js';
