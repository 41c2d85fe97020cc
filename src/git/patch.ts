// The hunks of a file's diff as `git diff` prints them by default (three lines of context, hunks
// whose context meets are joined, the default function-name heuristic after `@@`), without the
// file's header lines: what Gitaly hands GitLab as a diff's `diff` text. Files are compared by
// path, except that a deleted file and an added one of the same or similar content are a rename.
import { isBinary, matchLines, splitLines } from './diff.js';
import type { RepositoryObjects, TreeEntry } from './objects.js';
import { diffTrees } from './tree.js';

const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string; old: number; new: number };

/** The edit script of two line lists: within each changed run, deletions before insertions, as git prints them. */
function script(older: readonly string[], newer: readonly string[]): Op[] {
  const map = matchLines(older, newer);
  const ops: Op[] = [];
  let i = 0;
  let pendingAdds: Op[] = [];
  const flushTo = (target: number) => {
    for (; i < target; i++) ops.push({ kind: '-', line: older[i]!, old: i, new: -1 });
    ops.push(...pendingAdds);
    pendingAdds = [];
  };
  for (let j = 0; j < newer.length; j++) {
    const m = map[j]!;
    if (m < 0) {
      pendingAdds.push({ kind: '+', line: newer[j]!, old: -1, new: j });
      continue;
    }
    flushTo(m);
    ops.push({ kind: ' ', line: newer[j]!, old: i, new: j });
    i = m + 1;
  }
  flushTo(older.length);
  return ops;
}

/** git's default funcname rule: a line starting with a letter, `_` or `$`, trailing space dropped, at most 80 bytes. */
function funcLine(older: readonly string[], before: number): string {
  for (let k = before; k >= 0; k--) {
    const l = older[k]!;
    if (/^[A-Za-z_$]/.test(l)) {
      let text = l.trimEnd();
      const bytes = new TextEncoder().encode(text);
      if (bytes.length > 80) text = new TextDecoder().decode(bytes.slice(0, 80)).replace(/\uFFFD$/, '');
      return ` ${text}`;
    }
  }
  return '';
}

const range = (start: number, len: number) => (len === 1 ? `${start}` : `${start},${len}`);

/** The unified hunks between two texts; '' when they are equal. */
export function unifiedHunks(before: Uint8Array | string, after: Uint8Array | string): string {
  const older = splitLines(before);
  const newer = splitLines(after);
  const ops = script(older, newer);
  const changed = ops.map((o, k) => (o.kind === ' ' ? -1 : k)).filter((k) => k >= 0);
  if (changed.length === 0) return '';
  // Hunks: runs of changes whose context (3 lines each side) touches or overlaps.
  const groups: [number, number][] = [];
  for (const k of changed) {
    const last = groups[groups.length - 1];
    if (last && k - last[1] - 1 <= 2 * CONTEXT) last[1] = k;
    else groups.push([k, k]);
  }
  let out = '';
  for (const [first, lastChange] of groups) {
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length - 1, lastChange + CONTEXT);
    const slice = ops.slice(from, to + 1);
    let oldStart = -1;
    let newStart = -1;
    let oldLen = 0;
    let newLen = 0;
    for (const o of slice) {
      if (o.kind !== '+') {
        if (oldStart < 0) oldStart = o.old;
        oldLen++;
      }
      if (o.kind !== '-') {
        if (newStart < 0) newStart = o.new;
        newLen++;
      }
    }
    // An empty side names the line before it (0 at the top of the file).
    const oldLine = oldLen === 0 ? countBefore(ops, from, 'old') : oldStart + 1;
    const newLine = newLen === 0 ? countBefore(ops, from, 'new') : newStart + 1;
    out += `@@ -${range(oldLine, oldLen)} +${range(newLine, newLen)} @@${funcLine(older, (oldLen === 0 ? oldLine : oldStart + 1) - 2)}\n`;
    for (const o of slice) {
      out += o.kind + o.line;
      if (!o.line.endsWith('\n')) out += '\n\\ No newline at end of file\n';
    }
  }
  return out;
}

/** Lines of one side before op `at`. */
function countBefore(ops: readonly Op[], at: number, side: 'old' | 'new'): number {
  let n = 0;
  for (let k = 0; k < at; k++) if (ops[k]!.kind === ' ' || ops[k]!.kind === (side === 'old' ? '-' : '+')) n++;
  return n;
}

/** A line of unified hunks, numbered on both sides as Gitlab::Diff::Parser numbers them. */
export interface HunkLine {
  /** Its line on the old side; null for an added line (Gitlab::Diff::Line#old_line). */
  oldLine: number | null;
  /** Its line on the new side; null for a removed line. */
  newLine: number | null;
  /** Both sides' counters at the line: an added or removed line keeps the other side's (a line code names them). */
  oldPos: number;
  newPos: number;
}

/** The lines of unified hunks (`unifiedHunks`' output), context lines included. */
export function hunkLines(diff: string): HunkLine[] {
  const out: HunkLine[] = [];
  let oldPos = 0;
  let newPos = 0;
  for (const text of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      oldPos = Number(hunk[1]);
      newPos = Number(hunk[2]);
    } else if (text.startsWith('+')) {
      out.push({ oldLine: null, newLine: newPos, oldPos, newPos });
      newPos++;
    } else if (text.startsWith('-')) {
      out.push({ oldLine: oldPos, newLine: null, oldPos, newPos });
      oldPos++;
    } else if (text.startsWith(' ')) {
      out.push({ oldLine: oldPos, newLine: newPos, oldPos, newPos });
      oldPos++;
      newPos++;
    }
  }
  return out;
}

export interface FileDiff {
  oldPath: string;
  newPath: string;
  /** '0' for a side that has no file, as Gitaly gives it. */
  aMode: string;
  bMode: string;
  newFile: boolean;
  deletedFile: boolean;
  renamedFile: boolean;
  diff: string;
}

const mode = (e: TreeEntry | null) => (e ? String(Number.parseInt(e.mode, 8).toString(8)) : '0');

/**
 * Every file that differs between two trees (null: the empty tree), with its hunks, in path order.
 * A file deleted and another added are one rename, as `git diff --find-renames` (Gitaly's diff)
 * pairs them: first those of the same content, then those at least 50% similar, with the diff of
 * the edit.
 */
export async function treeDiffs(repo: RepositoryObjects, before: string | null, after: string | null): Promise<FileDiff[]> {
  const deltas = await diffTrees(repo, before, after);
  // Exact renames: an added blob that a deleted path held, preferring a source of the same base name.
  const deleted = new Map<string, typeof deltas>();
  for (const d of deltas) if (d.before && !d.after && d.before.type === 'blob') (deleted.get(d.before.oid) ?? deleted.set(d.before.oid, []).get(d.before.oid)!).push(d);
  const renamedFrom = new Map<string, string>();
  const used = new Set<string>();
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  for (const d of [...deltas].sort(byPath)) {
    if (d.before || !d.after || d.after.type !== 'blob') continue;
    const sources = (deleted.get(d.after.oid) ?? []).filter((s) => !used.has(s.path)).sort(byPath);
    if (sources.length === 0) continue;
    const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
    const src = sources.find((s) => base(s.path) === base(d.path)) ?? sources[0]!;
    used.add(src.path);
    renamedFrom.set(d.path, src.path);
  }
  await inexactRenames(repo, deltas, used, renamedFrom);
  const out: FileDiff[] = [];
  for (const d of deltas.sort(byPath)) {
    if (used.has(d.path) && !d.after) continue;
    const from = renamedFrom.get(d.path);
    if (from !== undefined) {
      const source = deltas.find((x) => x.path === from)!;
      const exact = source.before!.oid === d.after!.oid;
      const a = exact ? null : await repo.readBlob(source.before!.oid);
      const b = exact ? null : await repo.readBlob(d.after!.oid);
      const diff = !a || !b ? '' : isBinary(a) || isBinary(b) ? `Binary files a/${from} and b/${d.path} differ\n` : unifiedHunks(a, b);
      out.push({ oldPath: from, newPath: d.path, aMode: mode(source.before), bMode: mode(d.after), newFile: false, deletedFile: false, renamedFile: true, diff });
      continue;
    }
    const a = d.before?.type === 'blob' ? await repo.readBlob(d.before.oid) : new Uint8Array();
    const b = d.after?.type === 'blob' ? await repo.readBlob(d.after.oid) : new Uint8Array();
    const binary = isBinary(a) || isBinary(b);
    out.push({
      oldPath: d.path,
      newPath: d.path,
      aMode: mode(d.before),
      bMode: mode(d.after),
      newFile: d.before === null,
      deletedFile: d.after === null,
      renamedFile: false,
      diff: binary ? `Binary files a/${d.path} and b/${d.path} differ\n` : unifiedHunks(a, b),
    });
  }
  return out;
}

/** diffcore-rename's MAX_SCORE and the default minimum score, 50% (`-M` without a number). */
const MAX_SCORE = 60000;
const MIN_SCORE = MAX_SCORE / 2;

/**
 * diffcore-count-changes' span hashes: the content cut after each newline or every 64 bytes (a
 * text file's CR before LF dropped), each distinct span with the bytes it accounts for.
 */
function spans(data: Uint8Array): Map<string, number> {
  const text = !isBinary(data);
  const out = new Map<string, number>();
  let chunk: number[] = [];
  const flush = () => {
    if (chunk.length === 0) return;
    const key = String.fromCharCode(...chunk);
    out.set(key, (out.get(key) ?? 0) + chunk.length);
    chunk = [];
  };
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (text && c === 13 && data[i + 1] === 10) continue;
    chunk.push(c);
    if (c === 10 || chunk.length === 64) flush();
  }
  flush();
  return out;
}

/** diffcore-rename's estimate_similarity: the bytes of the source kept in the destination, over the larger size. */
function similarity(src: Uint8Array, dst: Uint8Array, srcSpans: Map<string, number>, dstSpans: Map<string, number>): number {
  const max = Math.max(src.length, dst.length);
  const min = Math.min(src.length, dst.length);
  if (max === 0 || min * (MAX_SCORE - MIN_SCORE) < (max - min) * MAX_SCORE) return 0;
  let copied = 0;
  for (const [key, n] of srcSpans) {
    const m = dstSpans.get(key);
    if (m !== undefined) copied += Math.min(n, m);
  }
  return Math.floor((copied * MAX_SCORE) / max);
}

/**
 * The renames of changed content (diffcore-rename after its exact pass): each added file against
 * each deleted one left, the pairs at least MIN_SCORE similar taken best first (a same base name
 * first among equals), each source once. Empty files are never paired.
 */
async function inexactRenames(
  repo: RepositoryObjects, deltas: Awaited<ReturnType<typeof diffTrees>>, used: Set<string>, renamedFrom: Map<string, string>,
): Promise<void> {
  const sources = deltas.filter((d) => d.before?.type === 'blob' && !d.after && !used.has(d.path));
  const targets = deltas.filter((d) => d.after?.type === 'blob' && !d.before && !renamedFrom.has(d.path));
  if (sources.length === 0 || targets.length === 0 || sources.length * targets.length > 1000 * 1000) return;
  const read = async (oid: string) => repo.readBlob(oid);
  const src = await Promise.all(sources.map(async (d) => {
    const data = await read(d.before!.oid);
    return { path: d.path, data, spans: data.length === 0 ? null : spans(data) };
  }));
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const scores: { score: number; sameName: boolean; src: string; dst: string; order: number }[] = [];
  let order = 0;
  for (const d of targets) {
    const data = await read(d.after!.oid);
    if (data.length === 0) continue;
    const dstSpans = spans(data);
    for (const s of src) {
      if (!s.spans) continue;
      const score = similarity(s.data, data, s.spans, dstSpans);
      if (score >= MIN_SCORE) scores.push({ score, sameName: base(s.path) === base(d.path), src: s.path, dst: d.path, order: order++ });
    }
  }
  scores.sort((a, b) => b.score - a.score || Number(b.sameName) - Number(a.sameName) || a.order - b.order);
  for (const m of scores) {
    if (used.has(m.src) || renamedFrom.has(m.dst)) continue;
    used.add(m.src);
    renamedFrom.set(m.dst, m.src);
  }
}
