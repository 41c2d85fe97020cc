// Project uploads: files that descriptions and notes link to, kept per project; maintainers list and delete them.
import { emptyTable, tdel, type Partitioned } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { Upload } from './records.js';
import { uploadRoutes } from './routes.js';

export interface UploadsSlice {
  /** Project id -> its uploads by id. */
  uploads: Partitioned<Upload>;
  /** Project id -> `<secret>/<filename>` -> upload id: how the web paths find an upload. */
  uploadPaths: Partitioned<number>;
}

declare module '../world.js' {
  interface Slices extends UploadsSlice {}
}

export const uploads: Family<UploadsSlice> = defineFamily({
  name: 'uploads',
  state: () => ({ uploads: emptyTable(), uploadPaths: emptyTable() }),
  routes: uploadRoutes,
  forget: { project: (draft, id) => void (tdel(draft.uploads, id), tdel(draft.uploadPaths, id)) },
});

export type { Upload } from './records.js';
export { findUpload, uploadMarkdown } from './rules.js';
