// Project uploads: files that descriptions and notes link to, kept per project.
import { emptyTable, tdel, type Partitioned } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { Upload } from './records.js';
import { uploadRoutes } from './routes.js';

export interface UploadsSlice {
  /** Project id -> its uploads by `<secret>/<filename>`. */
  uploads: Partitioned<Upload>;
}

export const uploads: Family<UploadsSlice> = defineFamily({
  name: 'uploads',
  state: () => ({ uploads: emptyTable() }),
  routes: uploadRoutes,
  forget: { project: (draft, id) => void tdel(draft.uploads, id) },
});

export type { Upload } from './records.js';
export { findUpload, uploadMarkdown } from './rules.js';
