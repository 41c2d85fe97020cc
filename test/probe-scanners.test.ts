// The scanners of user text, against the regular expressions they replace: the same matches on
// short random texts over the characters that matter, and the right ones on long adversarial
// texts, where the expressions would backtrack from every position (bench/probe-scans.ts times them).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanIssueRefs } from '../src/families/issues/references.js';

const REF = /(?:https?:\/\/[^\s#]+?\/-\/issues\/\d+|[\w.\/-]*#\d+)/g;
const byRegex = (text: string) => [...text.matchAll(REF)].map((m) => m[0]);

const piece = fc.constantFrom('a', 'Z', '_', '.', '/', '-', '#', '1', '9', ' ', '\n', '\t', 'http://', 'https://', '/-/issues/', '/-/issues/7', ':', 'é', '\u00a0', 'h', 'x#', '##1');
const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));

describe('scanIssueRefs', () => {
  it('finds what the expression finds, in order', () => {
    fc.assert(fc.property(text, (t) => {
      expect(scanIssueRefs(t)).toEqual(byRegex(t));
    }), { numRuns: 3000 });
  });

  it('on GitLab’s forms', () => {
    expect(scanIssueRefs('Closes #1, app#2 and acme/app#3; https://h/acme/app/-/issues/4 #x #')).toEqual(['#1', 'app#2', 'acme/app#3', 'https://h/acme/app/-/issues/4']);
  });

  it('on long runs, the same as the expression on shorter ones, and a reference after them', () => {
    for (const unit of ['a', 'a/', '_', '.', '-', '1', 'http://', 'https://a', '/-/issues/', 'http://x/-/issues/', 'x#1 ', '#1']) {
      const short = unit.repeat(Math.ceil(3000 / unit.length));
      expect(scanIssueRefs(short), unit).toEqual(byRegex(short));
      const run = unit.repeat(Math.ceil(100_000 / unit.length));
      const refs = scanIssueRefs(`${run} #12`);
      expect(refs.length, unit).toBe(byRegex(short).length === 0 ? 1 : refs.length);
      expect(refs[refs.length - 1], unit).toBe('#12');
    }
    expect(scanIssueRefs(`${'a/'.repeat(50_000)}#1`)).toEqual([`${'a/'.repeat(50_000)}#1`]);
    expect(scanIssueRefs(`${'x#1 '.repeat(25_000)}`)).toHaveLength(25_000);
  });
});
