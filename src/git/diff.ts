// Line diffs (Myers' O(ND) algorithm after trimming the common ends, then git's xdiff group
// compaction and indent heuristic), for blame and for commit stats. Lines keep their newline, so
// a last line without one differs from the same text with it.

const decoder = new TextDecoder();

/** git's test: a NUL in the first 8000 bytes makes a file binary. */
export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** The lines of a text, each with its `\n` (the last may have none). */
export function splitLines(bytes: Uint8Array | string): string[] {
  const text = typeof bytes === 'string' ? bytes : decoder.decode(bytes);
  if (text === '') return [];
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** Beyond this many differences a diff stops looking for matches in the middle. */
const MAX_COST = 2000;

/**
 * For each line of `newer`, the index of the same line in `older`, or -1 where `newer` added it.
 * Matches follow a longest common subsequence.
 */
export function matchLines(older: readonly string[], newer: readonly string[]): Int32Array {
  const map = new Int32Array(newer.length).fill(-1);
  let start = 0;
  while (start < older.length && start < newer.length && older[start] === newer[start]) map[start] = start++;
  let endO = older.length;
  let endN = newer.length;
  while (endO > start && endN > start && older[endO - 1] === newer[endN - 1]) map[--endN] = --endO;
  if (start === endO && endO === older.length && start === endN && endN === newer.length) return map;
  if (start === endO || start === endN) return compact(older, newer, map);
  const ids = new Map<string, number>();
  const intern = (s: string) => {
    let id = ids.get(s);
    if (id === undefined) ids.set(s, (id = ids.size));
    return id;
  };
  const a = Int32Array.from(older.slice(start, endO), intern);
  const b = Int32Array.from(newer.slice(start, endN), intern);
  for (const [i, j] of myers(a, b)) map[start + j] = start + i;
  return compact(older, newer, map);
}

/** One side of a diff as xdiff keeps it: the lines and which of them changed (with a 0 on either end). */
interface Side {
  recs: readonly string[];
  /** `rchg[i + 1]` is 1 when line i changed. */
  rchg: Uint8Array;
}

interface Group {
  start: number;
  end: number;
}

const changed = (f: Side, i: number) => f.rchg[i + 1] === 1;
const mark = (f: Side, i: number, v: number) => (f.rchg[i + 1] = v);

function groupInit(f: Side): Group {
  let end = 0;
  while (changed(f, end)) end++;
  return { start: 0, end };
}

function groupNext(f: Side, g: Group): boolean {
  if (g.end === f.recs.length) return false;
  g.start = g.end + 1;
  for (g.end = g.start; changed(f, g.end); g.end++);
  return true;
}

function groupPrevious(f: Side, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  for (g.start = g.end; changed(f, g.start - 1); g.start--);
  return true;
}

function slideDown(f: Side, g: Group): boolean {
  if (g.end >= f.recs.length || f.recs[g.start] !== f.recs[g.end]) return false;
  mark(f, g.start++, 0);
  mark(f, g.end++, 1);
  while (changed(f, g.end)) g.end++;
  return true;
}

function slideUp(f: Side, g: Group): boolean {
  if (g.start <= 0 || f.recs[g.start - 1] !== f.recs[g.end - 1]) return false;
  mark(f, --g.start, 1);
  mark(f, --g.end, 0);
  while (changed(f, g.start - 1)) g.start--;
  return true;
}

/** Columns of indentation (tabs to 8), -1 for a blank line (xdiff's get_indent). */
function indentOf(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === ' ') n++;
    else if (c === '\t') n += 8 - (n % 8);
    else if (c === '\n' || c === '\r' || c === '\f' || c === '\v') continue;
    else return n;
    if (n >= 200) return 200;
  }
  return -1;
}

/** xdiff's indent heuristic: how bad a split before line `split` looks (measure_split, score_add_split). */
function splitScore(f: Side, split: number, score: { indent: number; penalty: number }): void {
  const n = f.recs.length;
  const eof = split >= n;
  const indent0 = eof ? -1 : indentOf(f.recs[split]!);
  let preBlank = 0;
  let preIndent = -1;
  for (let i = split - 1; i >= 0; i--) {
    preIndent = indentOf(f.recs[i]!);
    if (preIndent !== -1) break;
    if (++preBlank === 20) {
      preIndent = 0;
      break;
    }
  }
  let postBlankRun = 0;
  let postIndent = -1;
  for (let i = split + 1; i < n; i++) {
    postIndent = indentOf(f.recs[i]!);
    if (postIndent !== -1) break;
    if (++postBlankRun === 20) {
      postIndent = 0;
      break;
    }
  }
  if (preIndent === -1 && preBlank === 0) score.penalty += 1;
  if (eof) score.penalty += 21;
  const postBlank = indent0 === -1 ? 1 + postBlankRun : 0;
  const totalBlank = preBlank + postBlank;
  score.penalty += -30 * totalBlank + 6 * postBlank;
  const indent = indent0 !== -1 ? indent0 : postIndent;
  const anyBlanks = totalBlank !== 0;
  score.indent += indent;
  if (indent === -1 || preIndent === -1 || indent === preIndent) return;
  if (indent > preIndent) score.penalty += anyBlanks ? 10 : -4;
  else if (postIndent !== -1 && postIndent > indent) score.penalty += anyBlanks ? 17 : 24;
  else score.penalty += anyBlanks ? 17 : 23;
}

/**
 * xdl_change_compact: slides each group of changed lines to where git puts it (next to a change
 * in the other file, else where the indent heuristic likes it best), so that equal lines are
 * attributed as `git blame` attributes them.
 */
function compactSide(f: Side, o: Side): void {
  const g = groupInit(f);
  const go = groupInit(o);
  for (;;) {
    if (g.end !== g.start) {
      let size: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        size = g.end - g.start;
        endMatchingOther = -1;
        while (slideUp(f, g)) groupPrevious(o, go);
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        while (slideDown(f, g)) {
          groupNext(o, go);
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (size !== g.end - g.start);
      if (g.end === earliestEnd) {
        // it could not move
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          slideUp(f, g);
          groupPrevious(o, go);
        }
      } else {
        let shift = Math.max(earliestEnd, g.end - size - 1, g.end - 100);
        let best = -1;
        let bestScore = { indent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const score = { indent: 0, penalty: 0 };
          splitScore(f, shift, score);
          splitScore(f, shift - size, score);
          const cmp = 60 * Math.sign(score.indent - bestScore.indent) + (score.penalty - bestScore.penalty);
          if (best === -1 || cmp <= 0) {
            bestScore = score;
            best = shift;
          }
        }
        while (g.end > best) {
          slideUp(f, g);
          groupPrevious(o, go);
        }
      }
    }
    if (!groupNext(f, g)) break;
    groupNext(o, go);
  }
}

function compact(older: readonly string[], newer: readonly string[], map: Int32Array): Int32Array {
  const a: Side = { recs: older, rchg: new Uint8Array(older.length + 2) };
  const b: Side = { recs: newer, rchg: new Uint8Array(newer.length + 2) };
  a.rchg.fill(1, 1, older.length + 1);
  for (let j = 0; j < newer.length; j++) {
    if (map[j]! >= 0) mark(a, map[j]!, 0);
    else mark(b, j, 1);
  }
  compactSide(a, b);
  compactSide(b, a);
  const out = new Int32Array(newer.length).fill(-1);
  let i = 0;
  for (let j = 0; j < newer.length; j++) {
    if (changed(b, j)) continue;
    while (changed(a, i)) i++;
    out[j] = i++;
  }
  return out;
}

/** Matched index pairs `[i in a, j in b]` of a shortest edit script. */
function myers(a: Int32Array, b: Int32Array): [number, number][] {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_COST);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) x++, y++;
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return []; // too different: every line of the middle counts as changed
  const pairs: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d]!; // v after round d-1, indexed from k = -d-1
    const at = (k: number) => prev[k + d + 1]!;
    const k = x - y;
    const pk = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const px = at(pk);
    const py = px - pk;
    // One edit from (px, py), then the diagonal run that ends at (x, y).
    const mx = pk === k + 1 ? px : px + 1;
    const my = mx - k;
    while (x > mx && y > my) pairs.push([--x, --y]);
    x = px;
    y = py;
  }
  while (x > 0 && y > 0) pairs.push([--x, --y]);
  return pairs;
}

/** Lines added and removed from `older` to `newer`. */
export function lineStats(older: readonly string[], newer: readonly string[]): { additions: number; deletions: number } {
  const map = matchLines(older, newer);
  let kept = 0;
  for (const i of map) if (i >= 0) kept++;
  return { additions: newer.length - kept, deletions: older.length - kept };
}
