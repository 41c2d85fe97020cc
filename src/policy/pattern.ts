// Regular expressions that users send (the branches `regex` filter, ...). GitLab runs them
// through RE2 (Gitlab::UntrustedRegexp), whose matching time is linear in the text: a pattern
// such as `(a+)+$` cannot stall the server as it would in a backtracking engine (JavaScript's
// RegExp). re2js is a JavaScript port of RE2 with its syntax: no backreferences or lookarounds,
// flags inline (`(?i)`), `^` and `$` at the ends of the text unless `(?m)`.
import type { RE2JS } from 're2js';
import { lazyModule } from '../core/lazy.js';

/** re2js, loaded at the first pattern compiled (~10 ms of CPU the package's import does not pay). */
const re2js = lazyModule('re2js', () => import('re2js'));

/** A compiled user pattern: whether it matches anywhere in a text (as Ruby's `match?`). */
export interface UserPattern {
  test(text: string): boolean;
}

/**
 * The largest program a user pattern may compile to. RE2 refuses a program beyond its memory
 * budget ("pattern too large - compile failed"), and matching costs the program's size for each
 * character; re2js has no budget of its own, so this is it. Counted in re2js's instructions (one
 * per character class or literal rune).
 */
export const MAX_PATTERN_PROGRAM = 100_000;

/**
 * A user's regular expression in RE2's syntax and semantics: unanchored, case-sensitive unless
 * it says `(?i)`. Null when RE2 would refuse it (invalid, or too large to run).
 */
export function userPattern(source: string): UserPattern | null {
  let re: RE2JS;
  try {
    re = re2js().RE2JS.compile(source);
  } catch {
    return null;
  }
  if (re.programSize() > MAX_PATTERN_PROGRAM) return null;
  return { test: (text) => re.test(text) };
}

/**
 * ProtectedRef's wildcard (Gitlab::RefMatcher): `*` is any run of characters, everything else
 * itself. Matched without a regular expression: each literal piece at its leftmost place after
 * the previous one, which is where it leaves the most room for the rest, so a name is read a
 * bounded number of times however many `*` the pattern has.
 */
export function matchesWildcard(pattern: string, name: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === name;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  const end = name.length - last.length;
  let at = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    const found = name.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
