// Project and group names are checked by an ASCII form first and GitLab's Unicode form only when
// that one refuses: the answer is the Unicode form's, whatever the name.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidGroupName, isValidProjectName } from '../src/policy/paths.js';

const PROJECT = /^[\p{L}\p{M}\p{Nd}\u{00A9}-\u{1F9FF}_][\p{L}\p{M}\p{Nd}\p{Pd}+\u{00A9}-\u{1F9FF}_. ]*$/u;
const GROUP = /^[\p{L}\p{M}\p{Nd}\u{00A9}-\u{1F9FF}_][\p{L}\p{M}\p{Nd}\p{Pd}\u{00A9}-\u{1F9FF}_(). ]*$/u;

const chars = fc.oneof(
  fc.constantFrom(...'aZ09_-+.() /\\$#@!~\n\t\u00e9\u00a9\u2013\u0301\u{1F600}\u{1FA00}\u0663'.split(/(?:)/u)),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);
const names = fc.array(chars, { maxLength: 12 }).map((cs) => cs.join(''));

describe('project and group names', () => {
  it('are valid exactly when GitLab’s Unicode pattern says so', () => {
    fc.assert(
      fc.property(names, (name) => {
        expect(isValidProjectName(name)).toBe(PROJECT.test(name));
        expect(isValidGroupName(name)).toBe(GROUP.test(name));
      }),
      { numRuns: 3000 },
    );
  });

  it('take letters, emoji and marks beyond ASCII, and refuse what GitLab refuses', () => {
    expect(isValidProjectName('Café 🚀')).toBe(true);
    expect(isValidGroupName('Équipe (R&D)')).toBe(false);
    expect(isValidGroupName('Équipe (RD)')).toBe(true);
    expect(isValidProjectName('-lead')).toBe(false);
    expect(isValidProjectName('a(b)')).toBe(false);
    expect(isValidGroupName('a+b')).toBe(false);
    expect(isValidProjectName('')).toBe(false);
  });
});
