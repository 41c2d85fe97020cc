// Snippets::{Create,Update,Destroy}Service: checks first, then a recipe that stores the snippet
// and keeps its indexes (by project, by author, public personal snippets).
import { sequences, type Project, type User, type Visibility } from '../../store/state.js';
import { pdel, pset, tdel, tget, tset } from '../../store/table.js';
import { assertRepositoryWritable } from '../repositories/index.js';
import { plain, type Change } from '../define.js';
import type { State } from '../world.js';
import { invalidActions, snippetNotFound } from './errors.js';
import type { Snippet, SnippetFile } from './records.js';
import { sortFiles } from './rules.js';

export const ids = sequences(['snippet']);

export interface CreateSnippetInput {
  title: string;
  description?: string;
  visibility: Visibility;
  files: SnippetFile[];
}

function index(d: State, s: Snippet): void {
  tset(d.snippets, s.id, s);
  if (s.projectId !== null) pset(d.projectSnippetIds, s.projectId, s.id, s.id);
  pset(d.userSnippetIds, s.authorId, s.id, s.id);
  if (s.projectId === null && s.visibility === 'public') tset(d.publicSnippetIds, s.id, s.id);
  else tdel(d.publicSnippetIds, s.id);
}

function checkFiles(files: readonly SnippetFile[]): void {
  const paths = new Set<string>();
  for (const f of files) {
    if (f.path === '' || paths.has(f.path) || f.path.split('/').some((p) => p === '' || p === '.' || p === '..')) throw invalidActions();
    paths.add(f.path);
  }
}

export function createSnippet(project: Project | null, author: User, input: CreateSnippetInput, now: number): Change<Snippet> {
  checkFiles(input.files);
  return (draft) => {
    const d = draft as State;
    const snippet: Snippet = {
      id: ids.next(d, 'snippet'),
      projectId: project?.id ?? null,
      authorId: author.id,
      title: input.title,
      description: input.description ?? null,
      visibility: input.visibility,
      files: sortFiles([...input.files]),
      createdAt: now,
      updatedAt: now,
    };
    index(d, snippet);
    return snippet;
  };
}

export interface SnippetChanges {
  title?: string;
  description?: string;
  visibility?: Visibility;
  files?: SnippetFile[];
}

export function updateSnippet(state: State, snippet: Snippet, changes: SnippetChanges, now: number): Change<Snippet> {
  assertRepositoryWritable(state, 'snippet', snippet.id);
  if (changes.files) checkFiles(changes.files);
  return (draft) => {
    const d = draft as State;
    const s = tget(d.snippets, snippet.id);
    if (!s) throw snippetNotFound();
    if (changes.title !== undefined) s.title = changes.title;
    if (changes.description !== undefined) s.description = changes.description;
    if (changes.visibility !== undefined) s.visibility = changes.visibility;
    if (changes.files) s.files = sortFiles([...changes.files]);
    s.updatedAt = now;
    const out = plain(s as Snippet);
    index(d, out);
    return out;
  };
}

export function deleteSnippet(state: State, snippet: Snippet): Change<void> {
  assertRepositoryWritable(state, 'snippet', snippet.id);
  return (draft) => {
    const d = draft as State;
    tdel(d.snippets, snippet.id);
    if (snippet.projectId !== null) pdel(d.projectSnippetIds, snippet.projectId, snippet.id);
    pdel(d.userSnippetIds, snippet.authorId, snippet.id);
    tdel(d.publicSnippetIds, snippet.id);
  };
}
