// The users a text mentions (`@username`), as Gitlab::ReferenceExtractor#users finds them in
// rendered Markdown: User.reference_pattern outside code spans and fenced code blocks. One pass
// over the text, linear in its length whatever it holds.

/**
 * The usernames mentioned, in order of first mention, lowercased. A username is
 * Gitlab::PathRegex's namespace format: letters, digits, `_`, `.` and `-`, not ending in `.`;
 * an `@` right after a word character (an email address) is no mention.
 */
export function mentionedUsernames(text: string): string[] {
  const found = new Set<string>();
  const n = text.length;
  let i = 0;
  let fence: string | null = null;
  let lineStart = true;
  // Run lengths already known to have no closing run before the end of their line (so that a
  // line of many unmatched runs is scanned once per length, not once per run).
  const unclosed = new Map<number, number>();
  while (i < n) {
    const c = text[i]!;
    if (lineStart) {
      // A fence opens or closes a code block on a line of its own (up to three spaces of indent).
      let j = i;
      while (j < n && j - i < 3 && text[j] === ' ') j++;
      const ch = text[j];
      if (ch === '`' || ch === '~') {
        let k = j;
        while (k < n && text[k] === ch) k++;
        if (k - j >= 3) {
          const marker = text.slice(j, k);
          if (fence === null) fence = marker;
          else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
          i = skipLine(text, k);
          lineStart = true;
          continue;
        }
      }
      lineStart = false;
    }
    if (c === '\n') {
      lineStart = true;
      i++;
      continue;
    }
    if (fence !== null) {
      i = skipLine(text, i);
      continue;
    }
    if (c === '`') {
      // A code span: the run of backticks closes at the next run of the same length on the line.
      let k = i;
      while (k < n && text[k] === '`') k++;
      const run = k - i;
      const known = unclosed.get(run);
      const close = known !== undefined && known >= k ? null : closingRun(text, k, run);
      if (close === null && (known === undefined || known < k)) unclosed.set(run, skipLine(text, k));
      i = close ?? k;
      continue;
    }
    if (c === '@' && (i === 0 || !/\w/.test(text[i - 1]!))) {
      let k = i + 1;
      while (k < n && /[A-Za-z0-9_.-]/.test(text[k]!)) k++;
      let end = k;
      while (end > i + 1 && text[end - 1] === '.') end--;
      const name = text.slice(i + 1, end);
      if (name !== '' && /^[A-Za-z0-9_.]/.test(name)) found.add(name.toLowerCase());
      i = k;
      continue;
    }
    i++;
  }
  return [...found];
}

function skipLine(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl;
}

/** Where a code span opened by `run` backticks ends (after its closing run), or null when no run of that length follows on its paragraph's line. */
function closingRun(text: string, from: number, run: number): number | null {
  let i = from;
  const n = text.length;
  while (i < n && text[i] !== '\n') {
    if (text[i] === '`') {
      let k = i;
      while (k < n && text[k] === '`') k++;
      if (k - i === run) return k;
      i = k;
    } else i++;
  }
  return null;
}

/**
 * The text cut into pieces that are Markdown code (fenced blocks, code spans) and pieces that are
 * not, in order; joined they are the text. References are found and rewritten outside code only.
 */
export function splitCode(text: string): { text: string; code: boolean }[] {
  const out: { text: string; code: boolean }[] = [];
  const n = text.length;
  let plainFrom = 0;
  const cut = (from: number, to: number) => {
    if (plainFrom < from) out.push({ text: text.slice(plainFrom, from), code: false });
    out.push({ text: text.slice(from, to), code: true });
    plainFrom = to;
  };
  const unclosed = new Map<number, number>();
  let i = 0;
  let lineStart = true;
  while (i < n) {
    if (lineStart) {
      lineStart = false;
      let j = i;
      while (j < n && j - i < 3 && text[j] === ' ') j++;
      const ch = text[j];
      if (ch === '`' || ch === '~') {
        let k = j;
        while (k < n && text[k] === ch) k++;
        if (k - j >= 3) {
          // A fenced block: to the closing fence's line end, or to the end of the text.
          const marker = k - j;
          let end = n;
          let p = skipLine(text, k);
          while (p < n) {
            const q = p + 1;
            let s = q;
            while (s < n && s - q < 3 && text[s] === ' ') s++;
            let e = s;
            while (e < n && text[e] === ch) e++;
            if (e - s >= marker) {
              end = skipLine(text, e);
              break;
            }
            p = skipLine(text, q);
          }
          cut(i, end);
          i = end;
          continue;
        }
      }
    }
    const c = text[i]!;
    if (c === '\n') {
      lineStart = true;
      i++;
      continue;
    }
    if (c === '`') {
      let k = i;
      while (k < n && text[k] === '`') k++;
      const run = k - i;
      const known = unclosed.get(run);
      const close = known !== undefined && known >= k ? null : closingRun(text, k, run);
      if (close === null) {
        if (known === undefined || known < k) unclosed.set(run, skipLine(text, k));
        i = k;
      } else {
        cut(i, close);
        i = close;
      }
      continue;
    }
    i++;
  }
  if (plainFrom < n) out.push({ text: text.slice(plainFrom), code: false });
  return out;
}
