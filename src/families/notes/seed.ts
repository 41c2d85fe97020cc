// The notes of a fixture's issues and merge requests (a project's `notes`), and of its epics (a
// group's `notes`): comments, internal notes and system notes as data, in the order given.
import { EmulatorError } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { addNote, noteKey } from '../../store/notes.js';
import { pget, tget } from '../../store/table.js';
import { issueByIid } from '../issues/index.js';
import { fixtureUserId } from '../users/index.js';
import { fixtureGroupPath, fixtureProjectPath, groupWhere, projectWhere, type SeedRun } from '../define.js';
import type { NoteableType, State } from '../world.js';
import type { groupNoteSchema, groupNotesSchema, projectNoteSchema, projectNotesSchema } from './schema.js';

/** A note of a fixture: on one issue or merge request (by iid) of the project, or one epic (by iid) of the group. */
export type FixtureNote = Infer<typeof projectNoteSchema> | Infer<typeof groupNoteSchema>;

export type FixtureProjectNotesPart = Infer<typeof projectNotesSchema>;
export type FixtureGroupNotesPart = Infer<typeof groupNotesSchema>;
/** The notes of a project's issues and merge requests, or of a group's epics. */
export type FixtureNotesPart = FixtureProjectNotesPart | FixtureGroupNotesPart;

function time(raw: string | undefined, fallback: number, where: string): number {
  if (raw === undefined) return fallback;
  const t = Date.parse(raw);
  if (!Number.isFinite(t)) throw new EmulatorError(`${where} has an unreadable time '${raw}'`);
  return t;
}

interface Target {
  type: NoteableType;
  id: number;
  projectId: number | null;
}

function seedNote(draft: State, target: Target, n: FixtureNote, authorId: number, now: number, where: string): void {
  if (n.body.trim() === '') throw new EmulatorError(`${where} has a note with an empty body`);
  const at = time(n.created_at, now, where);
  addNote(draft, noteKey(target.type, target.id), {
    noteableType: target.type, noteableId: target.id, commitId: null, projectId: target.projectId, authorId, body: n.body, system: n.system === true,
    internal: n.internal === true && target.type !== 'Snippet', createdAt: at, updatedAt: at,
  });
}

export function seedNotes(s: SeedRun): void {
  const groups = (s.fixture.groups ?? []).filter((g) => g.notes?.length);
  const projects = (s.fixture.projects ?? []).filter((p) => p.notes?.length);
  if (!groups.length && !projects.length) return;
  s.update((draft) => {
    const state = draft as State;
    for (const p of projects) {
      const project = s.handles.projects[fixtureProjectPath(p)]!;
      const where = projectWhere(p);
      for (const n of p.notes ?? []) {
        let target: Target | undefined;
        if (n.issue !== undefined) {
          const issue = issueByIid(state, project.id, n.issue);
          if (!issue) throw new EmulatorError(`${where} has a note on issue #${n.issue}, which it does not have`);
          target = { type: 'Issue', id: issue.id, projectId: project.id };
        } else if (n.merge_request !== undefined) {
          const mr = pget(state.mergeRequests, project.id, n.merge_request);
          if (!mr) throw new EmulatorError(`${where} has a note on merge request !${n.merge_request}, which it does not have`);
          target = { type: 'MergeRequest', id: mr.id, projectId: project.id };
        } else throw new EmulatorError(`${where} has a note on neither an issue nor a merge request`);
        seedNote(state, target, n, n.author ? fixtureUserId(state, n.author, where) : tget(state.projects, project.id)!.creatorId, s.now, where);
      }
    }
    for (const g of groups) {
      const group = s.handles.groups[fixtureGroupPath(g)]!;
      const where = groupWhere(g);
      for (const n of g.notes ?? []) {
        const epic = n.epic === undefined ? undefined : pget(state.epics, group.id, n.epic);
        if (!epic) throw new EmulatorError(`${where} has a note on epic ${n.epic === undefined ? '(none named)' : `&${n.epic}`}, which it does not have`);
        const authorId = n.author ? fixtureUserId(state, n.author, where) : epic.authorId;
        seedNote(state, { type: 'Epic', id: epic.id, projectId: null }, n, authorId, s.now, where);
      }
    }
  });
}
