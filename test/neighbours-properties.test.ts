// Properties: walking the tree by keyset pages or offset pages gives the whole listing once, in
// order; the three-way line merge takes each side's change where the other kept the base.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { mergeLines } from '../src/git/merge3.js';
import { apiCall, seededWorld } from './support/world.js';

const files: Record<string, string> = {};
for (const dir of ['', 'a/', 'a/b/', 'c/', 'c/d/e/']) for (const name of ['x.txt', 'y.md', 'z']) files[`${dir}${name}`] = `${dir}${name}\n`;
// Entries holding the same blob: a page token must tell them apart.
for (const path of ['.gitkeep', 'a/.gitkeep', 'a/b/.gitkeep', 'c/.gitkeep']) files[path] = '';

const FIXTURE: Fixture = {
  users: [{ username: 'dev', admin: true, tokens: [{ token: 'dev-token' }] }],
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'public', repository: { files } }],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');
type T = { id: string; path: string };
const get = async (path: string) => {
  const res = await apiCall(world(), path.replace(/^.*\/api\/v4/, ''), { token: 'dev-token' });
  expect(res.status).toBe(200);
  return { items: (await res.json()) as T[], next: /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1], headers: res.headers };
};

describe('tree pagination', () => {
  it('keyset and offset pages each give the whole listing once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.boolean(), fc.constantFrom('', 'a', 'c'), async (perPage, recursive, path) => {
        const q = `recursive=${recursive}&path=${path}`;
        const all = (await get(`/projects/acme%2Fapp/repository/tree?${q}&per_page=100`)).items.map((t) => t.path);
        const keyset: string[] = [];
        let url: string | undefined = `/projects/acme%2Fapp/repository/tree?${q}&pagination=keyset&per_page=${perPage}`;
        for (let i = 0; url && i < 100; i++) {
          const page = await get(url);
          expect(page.items.length).toBeLessThanOrEqual(perPage);
          keyset.push(...page.items.map((t) => t.path));
          url = page.next;
        }
        expect(keyset).toEqual(all);
        // The older token, a bare object id, starts after the first entry holding it.
        const first = (await get(`/projects/acme%2Fapp/repository/tree?${q}&pagination=keyset&per_page=1`)).items[0]!;
        const after = (await get(`/projects/acme%2Fapp/repository/tree?${q}&pagination=keyset&per_page=100&page_token=${first.id}`)).items.map((t) => t.path);
        expect(after).toEqual(all.slice(all.indexOf(first.path) + 1));
        const offset: string[] = [];
        for (let page = 1; page <= Math.ceil(all.length / perPage); page++) {
          offset.push(...(await get(`/projects/acme%2Fapp/repository/tree?${q}&per_page=${perPage}&page=${page}`)).items.map((t) => t.path));
        }
        expect(offset).toEqual(all);
      }),
      { numRuns: 25 },
    );
  });
});

describe('mergeLines', () => {
  const line = fc.constantFrom('a\n', 'b\n', 'c\n', '}\n', '\n');
  it('applies edits on separate regions of the base from both sides', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 6, maxLength: 30 }), fc.array(line, { maxLength: 3 }), fc.array(line, { maxLength: 3 }), fc.nat(), (base, mine, theirs, seed) => {
        // Ours replaces a line in the first third, theirs one in the last third; a unique separator keeps them apart.
        const sep = ['SEP1\n', 'SEP2\n', 'SEP3\n'];
        const b = [...base.slice(0, 2), sep[0]!, ...base.slice(2, 4), sep[1]!, ...base.slice(4, 6), sep[2]!, ...base.slice(6)];
        const i = seed % 2;
        const ours = [...b.slice(0, i), ...mine, ...b.slice(i + 1)];
        const t = b.length - 1 - (seed % 2);
        const theirsFull = t > 9 ? [...b.slice(0, t), ...theirs, ...b.slice(t + 1)] : b;
        const expected = t > 9 ? [...ours.slice(0, ours.length - (b.length - t)), ...theirs, ...b.slice(t + 1)] : ours;
        expect(mergeLines(b, ours, theirsFull)).toEqual(expected);
        expect(mergeLines(b, b, theirsFull)).toEqual(theirsFull);
        expect(mergeLines(b, ours, b)).toEqual(ours);
      }),
    );
  });
});
