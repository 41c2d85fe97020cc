// A merge request thread on a line of its diff (DiffNote, Gitlab::Diff::Position): the position
// as the client sent it, checked as GitLab's model checks it. A text position must name a line
// of the diff between `base_sha` and `head_sha` (an added line by `new_line`, a removed one by
// `old_line`, a line of context by both), and gets that line's code, `<sha1 of the path>_<old>_<new>`;
// an image or file position names a path only.
import { codec } from '../../git/format.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { hunkLines, treeDiffs } from '../../git/patch.js';
import type { DiffPosition } from '../../store/notes.js';
import { notesInvalid } from './errors.js';

export interface PositionInput {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  position_type: 'text' | 'image' | 'file';
  new_path?: string;
  old_path?: string;
  new_line?: number;
  old_line?: number;
  width?: number;
  height?: number;
  x?: number;
  y?: number;
  line_range?: Record<string, unknown>;
}

async function isCommit(repo: RepositoryObjects, sha: string): Promise<boolean> {
  if (!/^[0-9a-f]{40}$/.test(sha)) return false;
  return repo.readCommit(sha).then(() => true, () => false);
}

/** Position#line_code: the code of the diff line the position names, or null when the diff has no such line. */
export async function lineCode(repo: RepositoryObjects, p: Pick<PositionInput, 'base_sha' | 'head_sha' | 'old_line' | 'new_line'>, path: string): Promise<string | null> {
  if (!(await isCommit(repo, p.base_sha)) || !(await isCommit(repo, p.head_sha))) return null;
  const diffs = await treeDiffs(repo, (await repo.readCommit(p.base_sha)).tree, (await repo.readCommit(p.head_sha)).tree);
  const file = diffs.find((d) => d.newPath === path || d.oldPath === path);
  if (!file) return null;
  const line = hunkLines(file.diff).findLast((l) => l.oldLine === (p.old_line ?? null) && l.newLine === (p.new_line ?? null));
  if (!line) return null;
  return `${await codec.sha1(new TextEncoder().encode(file.newPath || file.oldPath))}_${line.oldPos}_${line.newPos}`;
}

/** DiffNote's validations: a text position's line has a code (is in the diff), and the position is complete (`Note {:line_code=>["can't be blank"]}`, `:position=>["is incomplete"]`). */
export async function checkDiffPosition(repo: RepositoryObjects, p: PositionInput): Promise<DiffPosition> {
  const path = p.new_path || p.old_path || '';
  const text = p.position_type === 'text';
  const code = text && path ? await lineCode(repo, p, path) : null;
  const complete = path !== '' && (!text || p.new_line !== undefined || p.old_line !== undefined);
  const errors: [string, string][] = [];
  if (text && code === null) errors.push(['line_code', "can't be blank"]);
  if (!complete) errors.push(['position', 'is incomplete']);
  if (errors.length) throw notesInvalid(errors);
  return diffPositionOf(p);
}

/** A position as a note keeps it, its fields by its type, whether or not it is on the diff. */
export function diffPositionOf(p: PositionInput): DiffPosition {
  const text = p.position_type === 'text';
  return {
    base_sha: p.base_sha, start_sha: p.start_sha, head_sha: p.head_sha, old_path: p.old_path ?? null, new_path: p.new_path ?? null, position_type: p.position_type,
    ...(text ? { old_line: p.old_line ?? null, new_line: p.new_line ?? null, line_range: p.line_range ?? null } : {}),
    ...(p.position_type === 'image' ? { width: p.width ?? null, height: p.height ?? null, x: p.x ?? null, y: p.y ?? null } : {}),
  };
}
