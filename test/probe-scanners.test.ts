// The scanners of user text, against the regular expressions they replace: the same matches on
// short random texts over the characters that matter, and the right ones on long adversarial
// texts, where the expressions would backtrack from every position (bench/probe-scans.ts times them).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../src/index.js'; // the families load in their order before a module of one is imported alone
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

describe('parseSpend’s time category', () => {
  const SPEND_CATEGORY = /\[timecategory:(.*)\]/;
  const SPEND_DATE = /(\d{2,4}[/\-.]\d{1,2}[/\-.]\d{1,2})/;
  const NOW = Date.parse('2030-01-01T00:00:00Z');
  /** What the expressions GitLab's separator uses give: the duration read without dates and categories, and the first category. */
  const model = (arg: string) => {
    const text = arg.replace(new RegExp(SPEND_DATE, 'g'), '').replace(new RegExp(SPEND_CATEGORY, 'g'), '');
    return { text, category: SPEND_CATEGORY.exec(arg)?.[1] ?? null };
  };

  it('finds what the expression finds', async () => {
    const { parseSpend } = await import('../src/families/issuables/command-args.js');
    const { parseDuration } = await import('../src/families/issuables/duration.js');
    const piece = fc.constantFrom('[timecategory:', ']', 'dev', ' ', '1h', '30m', '\n', '\u2028', '2024-01-02', 'x');
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), (arg) => {
      const got = parseSpend(arg, NOW);
      const want = model(arg);
      const seconds = parseDuration(want.text);
      if (arg.trim() === '' || seconds === null || SPEND_DATE.test(arg)) return; // dates and blanks: parseSpend's own rules
      expect(got).toEqual({ seconds, date: null, category: want.category });
    }), { numRuns: 2000 });
  });

  it('reads a long run of unclosed tags in one pass, with the right answer', async () => {
    const { parseSpend } = await import('../src/families/issuables/command-args.js');
    expect(parseSpend(`1h ${'[timecategory:'.repeat(50_000)}`, NOW)).toEqual({ seconds: 3600, date: null, category: null });
    expect(parseSpend(`1h [timecategory:dev] x ${'[timecategory:'.repeat(50_000)}]`, NOW)).toMatchObject({ seconds: 3600, category: `dev] x ${'[timecategory:'.repeat(50_000)}` });
  });
});
