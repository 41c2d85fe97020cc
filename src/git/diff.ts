// Line diffs (Myers' O(ND) algorithm after trimming the common ends), for blame and for commit
// stats. Lines keep their newline, so a last line without one differs from the same text with it.

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
  if (start === endO || start === endN) return map;
  const ids = new Map<string, number>();
  const intern = (s: string) => {
    let id = ids.get(s);
    if (id === undefined) ids.set(s, (id = ids.size));
    return id;
  };
  const a = Int32Array.from(older.slice(start, endO), intern);
  const b = Int32Array.from(newer.slice(start, endN), intern);
  for (const [i, j] of myers(a, b)) map[start + j] = start + i;
  return map;
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
