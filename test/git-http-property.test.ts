// A property of the git surface: whatever API commits and pushes are interleaved, a fresh clone's
// `git log` of each branch is the API's list of that branch's commits, in the same order.
import fc from 'fast-check';
import git from 'isomorphic-git';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server, type Snapshot } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { ORIGIN, TEAM, TEAM_MEMBERS } from './support/world.js';

type Step = { kind: 'api'; branch: string; file: string } | { kind: 'push'; branch: string; commits: number; file: string };

const BRANCHES = ['main', 'topic'];
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('api' as const), branch: fc.constantFrom(...BRANCHES), file: fc.constantFrom('a.txt', 'b/c.txt', 'd.md') }),
  fc.record({ kind: fc.constant('push' as const), branch: fc.constantFrom(...BRANCHES), commits: fc.integer({ min: 1, max: 3 }), file: fc.constantFrom('a.txt', 'e.txt') }),
);

describe('API commits and pushes, interleaved', () => {
  let emulator: Emulator;
  let seeded: Snapshot;
  let server: Server | undefined;
  // isomorphic-git's HTTP client straight onto `emulator.handle`: no socket.
  const http = {
    async request({ url, method = 'GET', headers = {}, body }: { url: string; method?: string; headers?: Record<string, string>; body?: AsyncIterable<Uint8Array> }) {
      const chunks: Uint8Array[] = [];
      if (body) for await (const c of body) chunks.push(c);
      const res = await emulator.handle(new Request(url, { method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }));
      const bytes = new Uint8Array(await res.arrayBuffer());
      async function* once() {
        yield bytes;
      }
      return { url, method, statusCode: res.status, statusMessage: res.statusText, headers: Object.fromEntries(res.headers), body: once() };
    },
  };
  const onAuth = () => ({ username: 'mai', password: 'maintainer-token' });

  beforeAll(async () => {
    emulator = await createEmulator({
      fixture: {
        users: TEAM,
        groups: [{ path: 'acme', visibility: 'public' }],
        projects: [{ namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, repository: { files: { 'README.md': '# App\n' } } }],
      },
      clock: { now: '2026-03-01T12:00:00Z', frozen: true },
    });
    seeded = emulator.snapshot();
    if (HAS_GIT) server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function apply(s: Step, n: number): Promise<void> {
    emulator.clock.advance('1m');
    const time = Math.floor(emulator.clock.now() / 1000);
    const exists = emulator.git('acme/app').refs().branches[s.branch] !== undefined;
    if (s.kind === 'api') {
      const res = await emulator.handle(
        new Request(`${ORIGIN}/api/v4/projects/acme%2Fapp/repository/files/${encodeURIComponent(`${n}-${s.file}`)}`, {
          method: 'POST',
          headers: { 'PRIVATE-TOKEN': 'maintainer-token', 'Content-Type': 'application/json' },
          body: JSON.stringify({ branch: s.branch, ...(exists ? {} : { start_branch: 'main' }), commit_message: `API ${n}`, content: `${n}\n` }),
        }),
      );
      expect(res.status, await res.clone().text()).toBe(201);
      return;
    }
    const fs = createFsFromVolume(new Volume());
    const dir = '/w';
    await git.clone({ fs, http, dir, url: `${ORIGIN}/acme/app.git`, onAuth, ref: exists ? s.branch : 'main', singleBranch: true });
    for (let i = 0; i < s.commits; i++) {
      fs.writeFileSync(`${dir}/${n}-${i}-${s.file}`, `${n}.${i}\n`);
      await git.add({ fs, dir, filepath: `${n}-${i}-${s.file}` });
      await git.commit({ fs, dir, message: `Push ${n}.${i}`, author: { name: 'Mai', email: 'mai@example.com', timestamp: time + i, timezoneOffset: 0 } });
    }
    const pushed = await git.push({ fs, http, dir, remote: 'origin', ref: exists ? s.branch : 'main', remoteRef: s.branch, onAuth });
    expect(pushed.ok).toBe(true);
  }

  async function apiLog(branch: string): Promise<string[]> {
    const res = await emulator.handle(
      new Request(`${ORIGIN}/api/v4/projects/acme%2Fapp/repository/commits?ref_name=${branch}&per_page=100`, { headers: { 'PRIVATE-TOKEN': 'maintainer-token' } }),
    );
    return ((await res.json()) as { id: string }[]).map((c) => c.id);
  }

  async function cloneLog(branch: string): Promise<string[]> {
    if (server) {
      const scratch = new GitScratch();
      try {
        await scratch.ok(['clone', '-q', '--branch', branch, withCredentials(`${server.url}/acme/app.git`, 'mai', 'maintainer-token'), 'c']);
        return (await scratch.ok(['log', '--format=%H'], 'c')).trim().split('\n');
      } finally {
        scratch.remove();
      }
    }
    const fs = createFsFromVolume(new Volume());
    await git.clone({ fs, http, dir: '/c', url: `${ORIGIN}/acme/app.git`, onAuth, ref: branch, singleBranch: true });
    return (await git.log({ fs, dir: '/c', ref: branch })).map((c) => c.oid);
  }

  it('leave a fresh clone’s log equal to the API’s commits, branch by branch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
        emulator.restore(seeded);
        emulator.clock.set('2026-03-01T12:00:00Z');
        for (const [n, s] of steps.entries()) await apply(s, n);
        for (const branch of Object.keys(emulator.git('acme/app').refs().branches)) {
          expect(await cloneLog(branch)).toEqual(await apiLog(branch));
        }
      }),
      { numRuns: 6 },
    );
  }, 60_000);
});
