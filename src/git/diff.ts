// Line diffs as git's xdiff makes them by default, for blame and for commit stats: the common
// tail left out (xdiff-interface.c), records prepared and pruned (xprepare.c), Myers' divide and
// conquer with its cost heuristics, then group sliding and the indent heuristic (xdiffi.c). Among
// the many equally short diffs of a file full of repeated lines, these rules pick git's. Lines
// keep their newline, so a last line without one differs from the same text with it.

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

const encoder = new TextEncoder();

/** UTF-8 length of a string, without encoding it. */
function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c < 0xe000) n += 1; // each half of a surrogate pair: 4 bytes for 2 units
    else if (c >= 0x800) n += 2;
    else if (c >= 0x80) n += 1;
  }
  return n;
}

/** How many bytes two strings share at their ends (as UTF-8). */
function commonSuffixBytes(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let n = 0;
  while (n < x.length && n < y.length && x[x.length - 1 - n] === y[y.length - 1 - n]) n++;
  return n;
}

/**
 * xdiff-interface.c trim_common_tail: before a diff without context, git drops whole 1 KiB blocks
 * the two files end with, keeping the line the cut falls in. Returns how many whole lines at the
 * end of both files take no part in the diff.
 */
function trimmedTail(older: readonly string[], newer: readonly string[]): number {
  const BLOCK = 1024;
  let sizeA = 0;
  for (const l of older) sizeA += utf8Length(l);
  let sizeB = 0;
  for (const l of newer) sizeB += utf8Length(l);
  const smaller = Math.min(sizeA, sizeB);
  if (smaller < BLOCK) return 0;
  // Bytes the files have in common at their ends, as far as a whole block more could reach.
  let common = 0;
  let i = older.length - 1;
  let j = newer.length - 1;
  while (i >= 0 && j >= 0 && common < smaller) {
    if (older[i] === newer[j]) {
      common += utf8Length(older[i]!);
      i--, j--;
    } else {
      common += commonSuffixBytes(older[i]!, newer[j]!);
      break;
    }
  }
  const trimmed = Math.floor(Math.min(common, smaller) / BLOCK) * BLOCK;
  if (trimmed === 0) return 0;
  // Lines that start after the first newline of the trimmed region are cut.
  const cutFrom = sizeA - trimmed;
  let lines = 0;
  let end = sizeA;
  for (let k = older.length - 1; k >= 0; k--) {
    end -= utf8Length(older[k]!);
    if (end <= cutFrom) break;
    lines++;
  }
  return lines;
}

/** xdl_bogosqrt. */
function bogosqrt(n: number): number {
  let i = 1;
  for (; n > 0; n = Math.floor(n / 4)) i *= 2;
  return i;
}

const KPDIS_RUN = 4;
const MAX_EQLIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const MAX_COST_MIN = 256;
const HEUR_MIN_COST = 256;
const SNAKE_CNT = 20;
const K_HEUR = 4;
const LINE_MAX = 0x7fffffff;

/** One file as xdiff prepares it: its records as classes, and which of them changed. */
interface XFile {
  recs: readonly string[];
  /** Each record's equivalence class (equal lines share one). */
  cls: Int32Array;
  /** `changed[i + 1]` is 1 when record i changed; a 0 sits on either end. */
  changed: Uint8Array;
  /** The records that take part in the LCS: their classes and their indexes. */
  ha: Int32Array;
  rindex: Int32Array;
  nreff: number;
}

/** xprepare.c xdl_clean_mmatch: whether a line with many matches sits in a run of lines with none. */
function cleanMmatch(dis: Uint8Array, i: number, s: number, e: number): boolean {
  if (i - s > SIMSCAN_WINDOW) s = i - SIMSCAN_WINDOW;
  if (e - i > SIMSCAN_WINDOW) e = i + SIMSCAN_WINDOW;
  let rdis0 = 0;
  let rpdis0 = 1;
  for (let r = 1; i - r >= s; r++) {
    const d = dis[i - r];
    if (d === 0) rdis0++;
    else if (d === 2) rpdis0++;
    else break;
  }
  if (rdis0 === 0) return false;
  let rdis1 = 0;
  let rpdis1 = 1;
  for (let r = 1; i + r <= e; r++) {
    const d = dis[i + r];
    if (d === 0) rdis1++;
    else if (d === 2) rpdis1++;
    else break;
  }
  if (rdis1 === 0) return false;
  rdis1 += rdis0;
  rpdis1 += rpdis0;
  return rpdis1 * KPDIS_RUN < rpdis1 + rdis1;
}

/**
 * xdl_prepare_env for Myers: classify the records, trim the common ends (xdl_trim_ends), and leave
 * out of the LCS the lines the other file lacks, and lines with many matches amid those
 * (xdl_cleanup_records); left-out lines count as changed.
 */
function prepare(older: readonly string[], newer: readonly string[]): [XFile, XFile] {
  const ids = new Map<string, number>();
  const classify = (recs: readonly string[]) => {
    const cls = new Int32Array(recs.length);
    for (let i = 0; i < recs.length; i++) {
      let id = ids.get(recs[i]!);
      if (id === undefined) ids.set(recs[i]!, (id = ids.size));
      cls[i] = id;
    }
    return cls;
  };
  const c1 = classify(older);
  const c2 = classify(newer);
  const count1 = new Int32Array(ids.size);
  const count2 = new Int32Array(ids.size);
  for (const c of c1) count1[c]!++;
  for (const c of c2) count2[c]!++;
  const n1 = older.length;
  const n2 = newer.length;
  let dstart = 0;
  const lim = Math.min(n1, n2);
  while (dstart < lim && c1[dstart] === c2[dstart]) dstart++;
  let tail = 0;
  while (tail < lim - dstart && c1[n1 - 1 - tail] === c2[n2 - 1 - tail]) tail++;
  const side = (recs: readonly string[], cls: Int32Array, other: Int32Array): XFile => {
    const n = recs.length;
    const dend = n - tail - 1;
    const mlim = Math.min(bogosqrt(n), MAX_EQLIMIT);
    const dis = new Uint8Array(n + 1);
    for (let i = dstart; i <= dend; i++) {
      const nm = other[cls[i]!]!;
      dis[i] = nm === 0 ? 0 : nm >= mlim ? 2 : 1;
    }
    const f: XFile = { recs, cls, changed: new Uint8Array(n + 2), ha: new Int32Array(n), rindex: new Int32Array(n), nreff: 0 };
    for (let i = dstart; i <= dend; i++) {
      if (dis[i] === 1 || (dis[i] === 2 && !cleanMmatch(dis, i, dstart, dend))) {
        f.rindex[f.nreff] = i;
        f.ha[f.nreff++] = cls[i]!;
      } else f.changed[i + 1] = 1;
    }
    return f;
  };
  return [side(older, c1, count2), side(newer, c2, count1)];
}

interface Split {
  i1: number;
  i2: number;
  minLo: boolean;
  minHi: boolean;
}

interface Env {
  mxcost: number;
  /** Forward and backward furthest points per diagonal, indexed from `base`. */
  kvdf: Int32Array;
  kvdb: Int32Array;
  base: number;
}

/** xdiffi.c xdl_split: the middle snake of a box, or a good-enough split when that costs too much. */
function split(x1: XFile, off1: number, lim1: number, x2: XFile, off2: number, lim2: number, needMin: boolean, env: Env): Split {
  const { kvdf, kvdb, base } = env;
  const h1 = x1.ha;
  const h2 = x2.ha;
  const dmin = off1 - lim2;
  const dmax = lim1 - off2;
  const fmid = off1 - off2;
  const bmid = lim1 - lim2;
  const odd = ((fmid - bmid) & 1) !== 0;
  let fmin = fmid;
  let fmax = fmid;
  let bmin = bmid;
  let bmax = bmid;
  kvdf[base + fmid] = off1;
  kvdb[base + bmid] = lim1;
  for (let ec = 1; ; ec++) {
    let gotSnake = false;
    if (fmin > dmin) kvdf[base + --fmin - 1] = -1;
    else ++fmin;
    if (fmax < dmax) kvdf[base + ++fmax + 1] = -1;
    else --fmax;
    for (let d = fmax; d >= fmin; d -= 2) {
      let i1 = kvdf[base + d - 1]! >= kvdf[base + d + 1]! ? kvdf[base + d - 1]! + 1 : kvdf[base + d + 1]!;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 < lim1 && i2 < lim2 && h1[i1] === h2[i2]) i1++, i2++;
      if (i1 - prev1 > SNAKE_CNT) gotSnake = true;
      kvdf[base + d] = i1;
      if (odd && bmin <= d && d <= bmax && kvdb[base + d]! <= i1) return { i1, i2, minLo: true, minHi: true };
    }
    if (bmin > dmin) kvdb[base + --bmin - 1] = LINE_MAX;
    else ++bmin;
    if (bmax < dmax) kvdb[base + ++bmax + 1] = LINE_MAX;
    else --bmax;
    for (let d = bmax; d >= bmin; d -= 2) {
      let i1 = kvdb[base + d - 1]! < kvdb[base + d + 1]! ? kvdb[base + d - 1]! : kvdb[base + d + 1]! - 1;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 > off1 && i2 > off2 && h1[i1 - 1] === h2[i2 - 1]) i1--, i2--;
      if (prev1 - i1 > SNAKE_CNT) gotSnake = true;
      kvdb[base + d] = i1;
      if (!odd && fmin <= d && d <= fmax && i1 <= kvdf[base + d]!) return { i1, i2, minLo: true, minHi: true };
    }
    if (needMin) continue;
    // Past the heuristic's trigger, a long enough snake far along the diagonals will do.
    if (gotSnake && ec > HEUR_MIN_COST) {
      let best = 0;
      let found: Split | null = null;
      for (let d = fmax; d >= fmin; d -= 2) {
        const dd = d > fmid ? d - fmid : fmid - d;
        const i1 = kvdf[base + d]!;
        const i2 = i1 - d;
        const v = i1 - off1 + (i2 - off2) - dd;
        if (v > K_HEUR * ec && v > best && off1 + SNAKE_CNT <= i1 && i1 < lim1 && off2 + SNAKE_CNT <= i2 && i2 < lim2) {
          for (let k = 1; h1[i1 - k] === h2[i2 - k]; k++) {
            if (k === SNAKE_CNT) {
              best = v;
              found = { i1, i2, minLo: true, minHi: false };
              break;
            }
          }
        }
      }
      if (found) return found;
      best = 0;
      for (let d = bmax; d >= bmin; d -= 2) {
        const dd = d > bmid ? d - bmid : bmid - d;
        const i1 = kvdb[base + d]!;
        const i2 = i1 - d;
        const v = lim1 - i1 + (lim2 - i2) - dd;
        if (v > K_HEUR * ec && v > best && off1 < i1 && i1 <= lim1 - SNAKE_CNT && off2 < i2 && i2 <= lim2 - SNAKE_CNT) {
          for (let k = 0; h1[i1 + k] === h2[i2 + k]; k++) {
            if (k === SNAKE_CNT - 1) {
              best = v;
              found = { i1, i2, minLo: false, minHi: true };
              break;
            }
          }
        }
      }
      if (found) return found;
    }
    // Enough is enough: the furthest reaching path either way.
    if (ec >= env.mxcost) {
      let fbest = -1;
      let fbest1 = -1;
      for (let d = fmax; d >= fmin; d -= 2) {
        let i1 = Math.min(kvdf[base + d]!, lim1);
        let i2 = i1 - d;
        if (lim2 < i2) (i1 = lim2 + d), (i2 = lim2);
        if (fbest < i1 + i2) (fbest = i1 + i2), (fbest1 = i1);
      }
      let bbest = LINE_MAX;
      let bbest1 = LINE_MAX;
      for (let d = bmax; d >= bmin; d -= 2) {
        let i1 = Math.max(off1, kvdb[base + d]!);
        let i2 = i1 - d;
        if (i2 < off2) (i1 = off2 + d), (i2 = off2);
        if (i1 + i2 < bbest) (bbest = i1 + i2), (bbest1 = i1);
      }
      if (lim1 + lim2 - bbest < fbest - (off1 + off2)) return { i1: fbest1, i2: fbest - fbest1, minLo: true, minHi: false };
      return { i1: bbest1, i2: bbest - bbest1, minLo: false, minHi: true };
    }
  }
}

/** xdiffi.c xdl_recs_cmp (divide and conquer), with a stack: the boxes are independent. */
function compareRecords(x1: XFile, x2: XFile, env: Env): void {
  const stack: [number, number, number, number, boolean][] = [[0, x1.nreff, 0, x2.nreff, false]];
  const h1 = x1.ha;
  const h2 = x2.ha;
  while (stack.length) {
    let [off1, lim1, off2, lim2, needMin] = stack.pop()!;
    while (off1 < lim1 && off2 < lim2 && h1[off1] === h2[off2]) off1++, off2++;
    while (off1 < lim1 && off2 < lim2 && h1[lim1 - 1] === h2[lim2 - 1]) lim1--, lim2--;
    if (off1 === lim1) for (; off2 < lim2; off2++) x2.changed[x2.rindex[off2]! + 1] = 1;
    else if (off2 === lim2) for (; off1 < lim1; off1++) x1.changed[x1.rindex[off1]! + 1] = 1;
    else {
      const s = split(x1, off1, lim1, x2, off2, lim2, needMin, env);
      stack.push([s.i1, lim1, s.i2, lim2, s.minHi]);
      stack.push([off1, s.i1, off2, s.i2, s.minLo]);
    }
  }
}

interface Group {
  start: number;
  end: number;
}

const changed = (f: XFile, i: number) => f.changed[i + 1] === 1;
const mark = (f: XFile, i: number, v: number) => (f.changed[i + 1] = v);

function groupInit(f: XFile): Group {
  let end = 0;
  while (changed(f, end)) end++;
  return { start: 0, end };
}

function groupNext(f: XFile, g: Group): boolean {
  if (g.end === f.recs.length) return false;
  g.start = g.end + 1;
  for (g.end = g.start; changed(f, g.end); g.end++);
  return true;
}

function groupPrevious(f: XFile, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  for (g.start = g.end; changed(f, g.start - 1); g.start--);
  return true;
}

function slideDown(f: XFile, g: Group): boolean {
  if (g.end >= f.recs.length || f.cls[g.start] !== f.cls[g.end]) return false;
  mark(f, g.start++, 0);
  mark(f, g.end++, 1);
  while (changed(f, g.end)) g.end++;
  return true;
}

function slideUp(f: XFile, g: Group): boolean {
  if (g.start <= 0 || f.cls[g.start - 1] !== f.cls[g.end - 1]) return false;
  mark(f, --g.start, 1);
  mark(f, --g.end, 0);
  while (changed(f, g.start - 1)) g.start--;
  return true;
}

/**
 * Columns of indentation (tabs to 8), -1 for a blank line (xdiff's get_indent). Blank is git's
 * isspace: space, tab, CR and LF, not form feed or vertical tab.
 */
function indentOf(line: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x20) n++;
    else if (c === 0x09) n += 8 - (n % 8);
    else if (c !== 0x0a && c !== 0x0d) return n;
    if (n >= 200) return 200;
  }
  return -1;
}

/** xdiff's indent heuristic: how bad a split before line `split` looks (measure_split, score_add_split). */
function splitScore(f: XFile, split: number, score: { indent: number; penalty: number }): void {
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
 * in the other file, else where the indent heuristic likes it best).
 */
function compactSide(f: XFile, o: XFile): void {
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

/**
 * For each line of `newer`, the index of the same line in `older`, or -1 where `newer` added it:
 * the diff git's xdiff makes by default (Myers, not minimal, with the indent heuristic), as
 * `git blame` and `git diff` see it.
 */
export function matchLines(older: readonly string[], newer: readonly string[]): Int32Array {
  const map = new Int32Array(newer.length).fill(-1);
  const tail = trimmedTail(older, newer);
  const a = tail ? older.slice(0, older.length - tail) : older;
  const b = tail ? newer.slice(0, newer.length - tail) : newer;
  for (let k = 1; k <= tail; k++) map[newer.length - k] = older.length - k;
  const [x1, x2] = prepare(a, b);
  const ndiags = x1.nreff + x2.nreff + 3;
  const env: Env = {
    mxcost: Math.max(bogosqrt(ndiags), MAX_COST_MIN),
    kvdf: new Int32Array(ndiags + 2),
    kvdb: new Int32Array(ndiags + 2),
    base: x2.nreff + 1,
  };
  compareRecords(x1, x2, env);
  compactSide(x1, x2);
  compactSide(x2, x1);
  let i = 0;
  for (let j = 0; j < b.length; j++) {
    if (changed(x2, j)) continue;
    while (changed(x1, i)) i++;
    map[j] = i++;
  }
  return map;
}

/** Lines added and removed from `older` to `newer`. */
export function lineStats(older: readonly string[], newer: readonly string[]): { additions: number; deletions: number } {
  const map = matchLines(older, newer);
  let kept = 0;
  for (const i of map) if (i >= 0) kept++;
  return { additions: newer.length - kept, deletions: older.length - kept };
}
