// Random worlds, built by random writes through the API (some refused, as a client's would be),
// exported and seeded again, answer alike on every read route of the API.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { validateFixture } from '../src/families/registry.js';
import { firstDifference, ORIGIN, readPaths } from './support/reads.js';

const NOW = '2030-01-01T00:00:00Z';
const TOKENS = { root: 'glpat-emulator-root-token', alice: 'glpat-emulator-alice-token' } as const;

interface Write {
  method: string;
  path: string;
  body?: unknown;
  as: keyof typeof TOKENS;
  /** Minutes the clock moves after it. */
  after: number;
}

const project = fc.constantFrom('1', '1', '2', 'acme%2Fwebsite');
const iid = fc.constantFrom(1, 1, 2);
const text = fc.oneof(fc.constantFrom('Fix', 'Add the thing', '日本', '__proto__', 'a "quote"'), fc.string({ minLength: 1, maxLength: 8 }));
const branch = fc.constantFrom('feature', 'fix/one', 'main', 'topic', 'feature');
const who = fc.constantFrom<keyof typeof TOKENS>('root', 'root', 'alice');
const minutes = fc.integer({ min: 0, max: 180 });

const write = (shape: fc.Arbitrary<Omit<Write, 'as' | 'after'>>): fc.Arbitrary<Write> => fc.tuple(shape, who, minutes).map(([w, as, after]) => ({ ...w, as, after }));

const WRITES: fc.Arbitrary<Write> = fc.oneof(
  write(fc.tuple(project, text, fc.constantFrom('', 'bug', 'bug,ui')).map(([p, title, labels]) => ({ method: 'POST', path: `/projects/${p}/issues`, body: { title, labels } }))),
  write(fc.tuple(project, iid, text).map(([p, i, body]) => ({ method: 'POST', path: `/projects/${p}/issues/${i}/notes`, body: { body } }))),
  write(fc.tuple(project, iid, fc.constantFrom('close', 'reopen')).map(([p, i, e]) => ({ method: 'PUT', path: `/projects/${p}/issues/${i}`, body: { state_event: e, add_labels: 'triaged' } }))),
  write(fc.tuple(project, iid).map(([p, i]) => ({ method: 'POST', path: `/projects/${p}/issues/${i}/award_emoji`, body: { name: 'thumbsup' } }))),
  write(fc.tuple(project, text).map(([p, name]) => ({ method: 'POST', path: `/projects/${p}/labels`, body: { name, color: '#00ff00' } }))),
  write(fc.tuple(project, text).map(([p, title]) => ({ method: 'POST', path: `/projects/${p}/milestones`, body: { title } }))),
  write(fc.tuple(project, branch).map(([p, b]) => ({ method: 'POST', path: `/projects/${p}/repository/branches`, body: { branch: b, ref: 'main' } }))),
  write(
    fc.tuple(project, branch, fc.constantFrom('README.md', 'src/app.ts', '.gitlab-ci.yml'), text).map(([p, b, file, content]) => ({
      method: 'POST',
      path: `/projects/${p}/repository/commits`,
      body: { branch: b, start_branch: 'main', commit_message: `Write ${file}`, actions: [{ action: file === 'README.md' ? 'update' : 'create', file_path: file, content: file === '.gitlab-ci.yml' ? 'test:\n  script: echo ok\n' : content }] },
    })),
  ),
  write(fc.tuple(project, branch, text).map(([p, b, title]) => ({ method: 'POST', path: `/projects/${p}/merge_requests`, body: { source_branch: b, target_branch: 'main', title } }))),
  write(fc.tuple(project, iid, text).map(([p, i, body]) => ({ method: 'POST', path: `/projects/${p}/merge_requests/${i}/discussions`, body: { body } }))),
  write(fc.tuple(project, branch).map(([p, ref]) => ({ method: 'POST', path: `/projects/${p}/pipeline`, body: { ref } }))),
  write(fc.tuple(project, text).map(([p, title]) => ({ method: 'POST', path: `/projects/${p}/wikis`, body: { title, content: `# ${title}` } }))),
  write(fc.tuple(project, text).map(([p, title]) => ({ method: 'POST', path: `/projects/${p}/snippets`, body: { title, visibility: 'internal', files: [{ file_path: 'a.txt', content: title }] } }))),
  write(text.map((title) => ({ method: 'POST', path: '/snippets', body: { title, visibility: 'public', files: [{ file_path: 'b.md', content: title }] } }))),
  write(fc.tuple(project, fc.constantFrom('KEY', 'OTHER', 'DEPLOY_TOKEN'), text).map(([p, key, value]) => ({ method: 'POST', path: `/projects/${p}/variables`, body: { key, value } }))),
  write(fc.tuple(project, fc.constantFrom(10, 20, 30, 40)).map(([p, access_level]) => ({ method: 'POST', path: `/projects/${p}/members`, body: { user_id: 1, access_level } }))),
  write(fc.tuple(project, fc.constantFrom('v1', 'v2')).map(([p, tag_name]) => ({ method: 'POST', path: `/projects/${p}/repository/tags`, body: { tag_name, ref: 'main', message: tag_name } }))),
  write(fc.tuple(project, fc.constantFrom('v1', 'v2'), text).map(([p, tag_name, name]) => ({ method: 'POST', path: `/projects/${p}/releases`, body: { tag_name, name } }))),
  write(fc.tuple(project, branch).map(([p, b]) => ({ method: 'DELETE', path: `/projects/${p}/repository/branches/${encodeURIComponent(b)}` }))),
  write(fc.tuple(project, iid).map(([p, i]) => ({ method: 'DELETE', path: `/projects/${p}/issues/${i}` }))),
  write(fc.constantFrom('dora', 'eve').map((username) => ({ method: 'POST', path: '/users', body: { username, name: username, email: `${username}@example.com`, password: 'a-long-password-9' } }))),
);

/** What the random writes build on, so that fewer of them are refused: an issue, a CI file, a branch and a merge request. */
const START: Write[] = [
  { method: 'POST', path: '/projects/1/issues', body: { title: 'First' }, as: 'alice', after: 5 },
  { method: 'POST', path: '/projects/1/repository/commits', body: { branch: 'main', commit_message: 'CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'test:\n  script: echo ok\n' }] }, as: 'root', after: 5 },
  { method: 'POST', path: '/projects/1/repository/commits', body: { branch: 'feature', start_branch: 'main', commit_message: 'Feature', actions: [{ action: 'create', file_path: 'f.txt', content: 'f' }] }, as: 'root', after: 5 },
  { method: 'POST', path: '/projects/1/merge_requests', body: { source_branch: 'feature', target_branch: 'main', title: 'Feature' }, as: 'alice', after: 5 },
];

async function built(writes: readonly Write[]): Promise<Emulator> {
  const e = await createEmulator({ clock: { now: NOW, frozen: true } });
  for (const w of [...START, ...writes]) {
    const res = await e.handle(
      new Request(`${ORIGIN}/api/v4${w.path}`, { method: w.method, headers: { 'PRIVATE-TOKEN': TOKENS[w.as], 'Content-Type': 'application/json' }, body: w.body === undefined ? undefined : JSON.stringify(w.body) }),
    );
    expect(res.status).toBeLessThan(500);
    await res.arrayBuffer();
    e.clock.advance(w.after * 60_000);
  }
  await e.settled();
  return e;
}

describe('a random world, exported and seeded again', () => {
  it('answers every read route as the world it came from', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(WRITES, { minLength: 1, maxLength: 12 }), async (writes) => {
        const e = await built(writes);
        const fixture = JSON.parse(JSON.stringify(await e.exportFixture())) as Fixture;
        validateFixture(fixture);
        const copy = await createEmulator({ fixture, clock: { now: e.clock.now(), frozen: true } });
        // The whole world came back, what no route shows too: the copy's export is the export.
        expect(JSON.stringify(await copy.exportFixture())).toBe(JSON.stringify(fixture));
        expect(await firstDifference(e, copy, readPaths(e, 2), [TOKENS.root])).toBeUndefined();
      }),
      { numRuns: 20 },
    );
  }, 300_000);
});
