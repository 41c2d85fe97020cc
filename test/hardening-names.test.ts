// Hardening: ref names that are JavaScript object properties (`constructor`, `__proto__`, ...)
// are names like any other, and the regular expressions users send (the branches `regex`
// filter, the commits `author` filter) are matched in linear time, as GitLab's RE2 does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { matchesWildcard, userPattern } from '../src/policy/pattern.js';
import { conflictsWithHierarchy, deleteBranchRef, emptyRepository, setBranchRef } from '../src/families/repositories/index.js';
import { ACME, apiCall, seededWorld, TEAM, teamProject, type CallInit } from './support/world.js';

/** 28 `a` and a `!`: `(a+)+$` backtracks 2^28 times over it in a backtracking engine. */
const EVIL_BRANCH = `${'a'.repeat(28)}!`;
/** An author whose `Name <email>` makes `^(a+)+$` backtrack exponentially. */
const LONG_NAME = 'a'.repeat(30);

const FIXTURE: Fixture = {
  users: [...TEAM, { username: 'longname', name: LONG_NAME, email: 'longname@example.com' }],
  groups: [ACME],
  projects: [
    teamProject({
      repository: {
        files: { 'README.md': '# App\n' },
        branches: { [EVIL_BRANCH]: 'main', aaaa: 'main', 'feature/x': 'main' },
        commits: [
          { message: 'By a long name', author: 'longname', files: { 'a.txt': 'a\n' }, date: '2024-01-02T00:00:00Z' },
          { message: 'By dev', author: 'dev', files: { 'b.txt': 'b\n' }, date: '2024-01-03T00:00:00Z' },
        ],
      },
    }),
  ],
};

const world = seededWorld(FIXTURE, '2024-01-05T00:00:00Z');
const api = (path: string, init?: CallInit) => apiCall(world(), path, init);
const REPO = '/projects/acme%2Fapp/repository';
const seg = encodeURIComponent;

/** Names an object's prototype chain answers for: a plain-object map would think each exists. */
const NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];

describe('ref names that are object properties', () => {
  it('hands out the refs as records without a prototype across changes', async () => {
    const git = world().git('acme/app');
    const before = git.refs();
    for (const map of [before.branches, before.tags]) expect(Object.getPrototypeOf(map)).toBeNull();
    expect((await api(`${REPO}/branches`, { method: 'POST', token: 'dev-token', json: { branch: 'next', ref: 'main' } })).status).toBe(201);
    expect((await api(`${REPO}/tags`, { method: 'POST', token: 'dev-token', json: { tag_name: 'v1', ref: 'main' } })).status).toBe(201);
    const after = git.refs();
    for (const map of [after.branches, after.tags]) expect(Object.getPrototypeOf(map)).toBeNull();
    expect(Object.keys(after.branches)).toContain('next');
    expect(after.branches.next).toBe(after.branches.main);
    expect(after.tags.v1?.commit).toBe(after.branches.main);
  });

  for (const name of NAMES) {
    describe(`'${name}'`, () => {
      it('is a branch like any other: 404 until created, then read, listed and deleted', async () => {
        const missing = await api(`${REPO}/branches/${seg(name)}`, { token: 'dev-token' });
        expect(missing.status).toBe(404);
        expect(await missing.json()).toEqual({ message: '404 Branch Not Found' });
        expect((await api(`${REPO}/branches/${seg(name)}`, { method: 'HEAD', token: 'dev-token' })).status).toBe(404);
        expect((await api(`${REPO}/branches/${seg(name)}`, { method: 'DELETE', token: 'dev-token' })).status).toBe(404);

        const made = await api(`${REPO}/branches`, { method: 'POST', token: 'dev-token', json: { branch: name, ref: 'main' } });
        expect(made.status).toBe(201);
        const main = (await (await api(`${REPO}/branches/main`, { token: 'dev-token' })).json()) as { commit: { id: string } };
        expect(await made.json()).toMatchObject({ name, commit: { id: main.commit.id }, default: false });

        const again = await api(`${REPO}/branches`, { method: 'POST', token: 'dev-token', json: { branch: name, ref: 'main' } });
        expect(again.status).toBe(400);
        expect(await again.json()).toEqual({ message: 'Branch already exists' });

        const read = await api(`${REPO}/branches/${seg(name)}`, { token: 'dev-token' });
        expect(read.status).toBe(200);
        expect(await read.json()).toMatchObject({ name, commit: { id: main.commit.id } });
        expect((await api(`${REPO}/branches/${seg(name)}`, { method: 'HEAD', token: 'dev-token' })).status).toBe(204);
        const listed = (await (await api(`${REPO}/branches?per_page=100`, { token: 'dev-token' })).json()) as { name: string }[];
        expect(listed.map((b) => b.name)).toContain(name);
        // A revision of that name resolves to the branch.
        const commits = await api(`${REPO}/commits?ref_name=${seg(name)}`, { token: 'dev-token' });
        expect(commits.status).toBe(200);
        expect(((await commits.json()) as { id: string }[])[0]!.id).toBe(main.commit.id);

        expect((await api(`${REPO}/branches/${seg(name)}`, { method: 'DELETE', token: 'dev-token' })).status).toBe(204);
        expect((await api(`${REPO}/branches/${seg(name)}`, { token: 'dev-token' })).status).toBe(404);
        const after = (await (await api(`${REPO}/branches?per_page=100`, { token: 'dev-token' })).json()) as { name: string }[];
        expect(after.map((b) => b.name)).not.toContain(name);
      });

      it('is a directory of branches like any other: a branch under it and the branch itself cannot coexist', async () => {
        const post = (branch: string) => api(`${REPO}/branches`, { method: 'POST', token: 'dev-token', json: { branch, ref: 'main' } });
        const conflict = { message: `Failed to create branch '${name}': Branch name conflicts with existing branch hierarchy.` };
        expect((await post(`${name}/x`)).status).toBe(201);
        const refused = await post(name);
        expect(refused.status).toBe(400);
        expect(await refused.json()).toEqual(conflict);
        expect((await api(`${REPO}/branches/${seg(`${name}/x`)}`, { method: 'DELETE', token: 'dev-token' })).status).toBe(204);
        expect((await post(name)).status).toBe(201);
        const under = await post(`${name}/y`);
        expect(under.status).toBe(400);
        expect(await under.json()).toEqual({ message: `Failed to create branch '${name}/y': Branch name conflicts with existing branch hierarchy.` });
        expect((await api(`${REPO}/branches/${seg(name)}`, { method: 'DELETE', token: 'dev-token' })).status).toBe(204);
      });

      it('is a tag and a release like any other: created, read, listed and deleted', async () => {
        const missing = await api(`${REPO}/tags/${seg(name)}`, { token: 'dev-token' });
        expect(missing.status).toBe(404);
        expect(await missing.json()).toEqual({ message: '404 Tag Not Found' });
        expect((await api(`/projects/acme%2Fapp/releases/${seg(name)}`, { token: 'dev-token' })).status).toBe(404);
        // Neither a branch nor a tag of that name is a target yet.
        for (const ref of [`refs/heads/${name}`, `refs/tags/${name}`, name]) {
          const res = await api(`${REPO}/tags`, { method: 'POST', token: 'dev-token', json: { tag_name: `from-${name}`, ref } });
          expect(res.status, ref).toBe(405);
          expect(await res.json()).toEqual({ message: `Target ${ref} is invalid` });
        }

        const made = await api(`${REPO}/tags`, { method: 'POST', token: 'dev-token', json: { tag_name: name, ref: 'main', message: `Tag ${name}` } });
        expect(made.status).toBe(201);
        expect(await made.json()).toMatchObject({ name, message: `Tag ${name}`, release: null });
        const again = await api(`${REPO}/tags`, { method: 'POST', token: 'dev-token', json: { tag_name: name, ref: 'main' } });
        expect(again.status).toBe(405);
        expect(await again.json()).toEqual({ message: `Tag ${name} already exists` });

        const read = await api(`${REPO}/tags/${seg(name)}`, { token: 'dev-token' });
        expect(read.status).toBe(200);
        expect(await read.json()).toMatchObject({ name, message: `Tag ${name}` });
        const tags = (await (await api(`${REPO}/tags`, { token: 'dev-token' })).json()) as { name: string }[];
        expect(tags.map((t) => t.name)).toContain(name);
        // A revision of that name resolves to the tag's commit.
        const main = (await (await api(`${REPO}/branches/main`, { token: 'dev-token' })).json()) as { commit: { id: string } };
        for (const ref of [`refs/tags/${name}`, name]) {
          const commits = await api(`${REPO}/commits?ref_name=${seg(ref)}`, { token: 'dev-token' });
          expect(commits.status, ref).toBe(200);
          expect(((await commits.json()) as { id: string }[])[0]!.id).toBe(main.commit.id);
        }

        const release = await api('/projects/acme%2Fapp/releases', { method: 'POST', token: 'dev-token', json: { tag_name: name, name: `Release ${name}` } });
        expect(release.status).toBe(201);
        expect(await release.json()).toMatchObject({ tag_name: name, name: `Release ${name}` });
        const got = await api(`/projects/acme%2Fapp/releases/${seg(name)}`, { token: 'dev-token' });
        expect(got.status).toBe(200);
        expect(await got.json()).toMatchObject({ tag_name: name, name: `Release ${name}` });
        const releases = (await (await api('/projects/acme%2Fapp/releases', { token: 'dev-token' })).json()) as { tag_name: string }[];
        expect(releases.map((r) => r.tag_name)).toEqual([name]);
        const withRelease = (await (await api(`${REPO}/tags/${seg(name)}`, { token: 'dev-token' })).json()) as { release: { tag_name: string } | null };
        expect(withRelease.release).toMatchObject({ tag_name: name });

        const deletedRelease = await api(`/projects/acme%2Fapp/releases/${seg(name)}`, { method: 'DELETE', token: 'maintainer-token' });
        expect(deletedRelease.status).toBe(200);
        expect((await api(`/projects/acme%2Fapp/releases/${seg(name)}`, { token: 'dev-token' })).status).toBe(404);
        expect((await api(`${REPO}/tags/${seg(name)}`, { method: 'DELETE', token: 'dev-token' })).status).toBe(204);
        expect((await api(`${REPO}/tags/${seg(name)}`, { token: 'dev-token' })).status).toBe(404);
        const left = (await (await api(`${REPO}/tags`, { token: 'dev-token' })).json()) as { name: string }[];
        expect(left.map((t) => t.name)).not.toContain(name);
      });
    });
  }
});

describe('regular expressions from users run in linear time', () => {
  const branchNames = async (regex: string) => {
    const res = await api(`${REPO}/branches?per_page=100&regex=${seg(regex)}`, { token: 'dev-token' });
    expect(res.status).toBe(200);
    return ((await res.json()) as { name: string }[]).map((b) => b.name);
  };

  // The test's timeout is the guard: a backtracking engine takes seconds to minutes here, and
  // every other request waits meanwhile.
  it('filters branches by `(a+)+$` over a branch of 28 `a` and a `!`', { timeout: 2000 }, async () => {
    expect(await branchNames('(a+)+$')).toEqual(['aaaa']);
    expect(await branchNames('(a|a)+$')).toEqual(['aaaa']);
    expect(await branchNames('^(a+)+!$')).toEqual([EVIL_BRANCH]);
  });

  it('keeps the filter GitLab runs: unanchored, case-sensitive, `^` and `$` at the ends of the name', async () => {
    expect(await branchNames('^(main|aaaa)$')).toEqual(['aaaa', 'main']);
    expect(await branchNames('eature/')).toEqual(['feature/x']);
    expect(await branchNames('MAIN')).toEqual([]);
    expect(await branchNames('(?i)MAIN')).toEqual(['main']);
  });

  it('refuses a regex RE2 refuses, or one too large to run, with 400 Regex is invalid', async () => {
    for (const regex of ['(oops', '(a)\\1', 'a(?=b)', '(a{1000}){1000}', '\\pL{1000}'.repeat(200)]) {
      const res = await api(`${REPO}/branches?regex=${seg(regex)}`, { token: 'dev-token' });
      expect(res.status, regex).toBe(400);
      expect(await res.json()).toEqual({ message: 'Regex is invalid' });
    }
  });

  const titles = async (author: string) => {
    const res = await api(`${REPO}/commits?author=${seg(author)}`, { token: 'dev-token' });
    expect(res.status).toBe(200);
    return ((await res.json()) as { title: string }[]).map((c) => c.title);
  };

  it('filters commits by `^(a+)+$` over a long author name', { timeout: 2000 }, async () => {
    expect(await titles('^(a+)+$')).toEqual([]);
    expect(await titles('^(a|a)+$')).toEqual([]);
    expect(await titles('^(a+)+ <longname@')).toEqual(['By a long name']);
  });

  it('keeps the author filter: a regex over `Name <email>`, else the text itself', async () => {
    expect(await titles('Dee')).toEqual(['By dev']);
    expect(await titles('<dev@example\\.com>$')).toEqual(['By dev']);
    expect(await titles('dee')).toEqual([]);
    expect(await titles('(?i)^dee')).toEqual(['By dev']);
    // An invalid pattern is looked for as it is.
    expect(await titles('(oops')).toEqual([]);
    expect(await titles('Dee Veloper <dev')).toEqual(['By dev']);
  });
});

describe('the patterns of src/policy/pattern.ts', () => {
  it('userPattern: RE2 syntax, null for what RE2 refuses', () => {
    expect(userPattern('^v[0-9]+$')!.test('v12')).toBe(true);
    expect(userPattern('^v[0-9]+$')!.test('xv12')).toBe(false);
    expect(userPattern('a$')!.test('a\n')).toBe(false);
    expect(userPattern('(?P<n>x)')!.test('x')).toBe(true);
    for (const bad of ['(', '[', 'a**', '(a)\\1', '(?<=a)b', '\\q', '(a{1000}){1000}']) expect(userPattern(bad), bad).toBeNull();
  });

  // Gitlab::RefMatcher: `*` is any run of characters. The regular expression the repositories
  // family builds today for it backtracks polynomially in the number of `*`.
  const asRegex = (pattern: string, name: string) =>
    new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^]*?')}$`).test(name);

  it('matchesWildcard agrees with the wildcard as a regular expression', () => {
    expect(matchesWildcard('release/*', 'release/1.0')).toBe(true);
    expect(matchesWildcard('release/*', 'release/')).toBe(true);
    expect(matchesWildcard('release/*', 'release')).toBe(false);
    expect(matchesWildcard('*-stable', 'v1-stable')).toBe(true);
    expect(matchesWildcard('v*.*', 'v1')).toBe(false);
    expect(matchesWildcard('a*a', 'a')).toBe(false);
    expect(matchesWildcard('main', 'main')).toBe(true);
    expect(matchesWildcard('main', 'mainline')).toBe(false);
    const pattern = fc.string({ unit: fc.constantFrom('a', 'b', '.', '/', '*'), maxLength: 8 });
    const name = fc.string({ unit: fc.constantFrom('a', 'b', '.', '/'), maxLength: 10 });
    fc.assert(fc.property(pattern, name, (p, n) => matchesWildcard(p, n) === asRegex(p, n)), { numRuns: 2000 });
  });

  it('matchesWildcard reads a long name once however many `*` the pattern has', { timeout: 2000 }, () => {
    expect(matchesWildcard(`${'*-'.repeat(12)}x`, '-'.repeat(200))).toBe(false);
    expect(matchesWildcard(`${'*-'.repeat(12)}x`, `${'-'.repeat(200)}x`)).toBe(true);
  });
});

describe('branch hierarchy', () => {
  it('agrees with a plain model of branch names across creates and deletes', () => {
    const part = fc.constantFrom('a', 'b', '__proto__', 'constructor');
    const name = fc.array(part, { minLength: 1, maxLength: 3 }).map((p) => p.join('/'));
    const op = fc.tuple(fc.boolean(), name);
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.array(name, { minLength: 1, maxLength: 10 }), (ops, probes) => {
        const refs = emptyRepository();
        const model = new Set<string>();
        const conflicts = (n: string) => [...model].some((b) => b !== n && (b.startsWith(`${n}/`) || n.startsWith(`${b}/`)));
        for (const [create, n] of ops) {
          if (create && !model.has(n) && !conflicts(n)) {
            setBranchRef(refs, n, 'sha');
            model.add(n);
          } else if (!create) {
            expect(deleteBranchRef(refs, n)).toBe(model.delete(n));
          }
        }
        for (const n of [...probes, ...ops.map(([, o]) => o)]) expect(conflictsWithHierarchy(refs, n), n).toBe(conflicts(n));
      }),
    );
  });
});
