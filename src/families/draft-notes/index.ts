// Draft notes (lib/api/draft_notes.rb): the comments of a merge request review, seen by their
// author only until published, one at a time or all at once, as notes of the notes family.
import { emptyTable, type Partitioned } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import type { DraftNote } from './records.js';
import { forgetProjectDrafts } from './rules.js';
import { draftNoteRoutes } from './routes.js';

export interface DraftNotesSlice {
  /** Target project id -> draft note id -> the draft (each names its merge request and author). */
  draftNotes: Partitioned<DraftNote>;
}

declare module '../world.js' {
  interface Slices extends DraftNotesSlice {}
}

export const draftNotes: Family<DraftNotesSlice> = defineFamily({
  name: 'draft-notes',
  state: () => ({ draftNotes: emptyTable() }),
  routes: draftNoteRoutes,
  forget: { project: (draft, id) => forgetProjectDrafts(draft as State, id) },
});

export type { DraftNote } from './records.js';
