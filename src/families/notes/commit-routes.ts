// A commit's comments (lib/api/commits.rb `comments`, Entities::CommitNote): notes on a commit,
// optionally on one line of its diff (a LegacyDiffNote, when the line is in the diff).
import { messageError, missingAttribute, notFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { hunkLines } from '../../git/patch.js';
import { addNote, noteKey, noteList, type Note } from '../../store/notes.js';
import { emit } from '../stream.js';
import { tget } from '../../store/table.js';
import { commitDiffs } from '../commits/index.js';
import { canReadCode, repositoryEnabled, repoView, resolveCommit } from '../repositories/index.js';
import { userBasic } from '../users/index.js';
import { project, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { iso } from '../../render/time.js';
import { MAX_BODY } from './rules.js';

const READ = project(repositoryEnabled, canReadCode);

async function commitOf(ctx: Context<{ sha: string }>): Promise<string> {
  const sha = await resolveCommit(ctx.env.git.repository(ctx.project.id), repoView(ctx.state, ctx.project), ctx.params.sha);
  if (!sha) throw notFound('Commit');
  return sha;
}

/** Entities::CommitNote. */
function commitNoteEntity(ctx: Context<unknown>, n: Note) {
  const author = tget(ctx.state.users, n.authorId);
  return {
    note: n.body,
    path: n.position?.path ?? null,
    line: n.position?.line ?? null,
    line_type: n.position?.lineType ?? null,
    author: author ? userBasic(author, ctx) : null,
    created_at: iso(n.createdAt),
  };
}

/**
 * Whether the commit's diff of `path` has the line, as the API looks for it: an added line
 * (`new`) or a removed one (`old`) whose position on the new side is `line`.
 */
function diffHasLine(diff: string, line: number, type: 'new' | 'old'): boolean {
  return hunkLines(diff).some((l) => (type === 'new' ? l.oldLine === null : l.newLine === null) && l.newPos === line);
}

const failedToSave = (field: string, text: string) => messageError(400, `Failed to save note {:${field}=>[${JSON.stringify(text)}]}`);

export const commitNoteRoutes = [
  route({
    method: 'GET', path: '/projects/:id/repository/commits/:sha/comments', scope: READ, paginated: true, cacheable: true, params: { sha: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const sha = await commitOf(ctx);
      return json(ctx.paginate(noteList(ctx.state, noteKey('Commit', `${ctx.project.id}:${sha}`))).map((n) => commitNoteEntity(ctx, n)));
    },
  }),
  route({
    method: 'POST', path: '/projects/:id/repository/commits/:sha/comments', auth: 'user', scope: READ, rateLimit: 'notes_create',
    params: { sha: str().required(), note: str().required(), path: str(), line: int(), line_type: str().values(['new', 'old'] as const).default('new') },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      if (p.path !== undefined && p.line === undefined) throw missingAttribute('line');
      const sha = await commitOf(ctx);
      if (p.note.trim() === '') throw failedToSave('note', "can't be blank");
      if ([...p.note].length > MAX_BODY) throw failedToSave('note', `is too long (maximum is ${MAX_BODY} characters)`);
      let position: Note['position'] = null;
      if (p.path !== undefined && p.line !== undefined) {
        const diffs = await commitDiffs(ctx.env.git.repository(ctx.project.id), sha);
        const file = diffs.find((d) => d.newPath === p.path);
        if (file && diffHasLine(file.diff, p.line, p.line_type)) position = { path: p.path, line: p.line, lineType: p.line_type };
      }
      const user = ctx.user!;
      const now = ctx.now();
      const note = ctx.update((draft) => {
        const made = addNote(draft as State, noteKey('Commit', `${ctx.project.id}:${sha}`), {
          noteableType: 'Commit', noteableId: null, commitId: sha, projectId: ctx.project.id, authorId: user.id, body: p.note, system: false, internal: false,
          createdAt: now, updatedAt: now, position,
        });
        emit(draft, { kind: 'note.created', projectId: ctx.project.id, noteId: made.id, noteableType: 'Commit', noteableId: sha, noteableIid: null });
        return made;
      });
      return created(commitNoteEntity(ctx, note));
    },
  }),
];
