// Entities::Note and Entities::NoteCommands (lib/api/entities/note.rb).
import { isResolvable, type Discussion, type Note } from '../../store/notes.js';
import { tget } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';

/** The resolution fields Entities::Note shows of a resolvable note only. */
function resolution(v: UrlBase & { state: State }, n: Note) {
  if (!isResolvable(n)) return {};
  const by = n.resolvedById ? tget(v.state.users, n.resolvedById) : undefined;
  return { resolved: !!n.resolvedAt, resolved_by: by ? userBasic(by, v) : null, resolved_at: n.resolvedAt ? iso(n.resolvedAt) : null };
}

export function noteEntity(v: UrlBase & { state: State }, n: Note, noteableIid: number | null, commandsChanges: Record<string, unknown> = {}) {
  const author = tget(v.state.users, n.authorId);
  return {
    id: n.id,
    type: n.type ?? null,
    body: n.body,
    attachment: null,
    // The spec's note author also carries `email` and `created_at` (GitLab's documented example).
    author: author ? { ...userBasic(author, v), email: author.email, created_at: iso(author.createdAt) } : null,
    created_at: iso(n.createdAt),
    updated_at: iso(n.updatedAt),
    system: n.system,
    noteable_id: n.noteableId,
    noteable_type: n.noteableType,
    project_id: n.projectId,
    ...(n.diff ? { commit_id: n.diff.commitId, position: n.diff.position } : {}),
    resolvable: isResolvable(n),
    ...resolution(v, n),
    confidential: n.internal,
    internal: n.internal,
    imported: false,
    imported_from: 'none',
    noteable_iid: noteableIid,
    commands_changes: commandsChanges,
  };
}

/** The answer to a note of commands only (202): what they changed, and their messages as one line. */
export function noteCommandsEntity(changes: Record<string, unknown>, messages: string[]) {
  return { commands_changes: changes, summary: messages.length ? [messages.join(' ')] : [] };
}

/** Entities::Discussion: its id, whether it is a note alone, and its notes. */
export function discussionEntity(v: UrlBase & { state: State }, d: Discussion, notes: readonly Note[], noteableIid: number | null) {
  return { id: d.id, individual_note: d.individual, notes: notes.map((n) => noteEntity(v, n, noteableIid)) };
}
