// A property of a wiki's repository: whatever API page writes and git pushes are interleaved, the
// wiki API's pages are the page files of the wiki's head (by slug, format and content), and a
// fresh clone holds them. isomorphic-git through `emulator.handle`: no socket, no git binary.
import fc from 'fast-check';
import git from 'isomorphic-git';
import { Volume, createFsFromVolume } from 'memfs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Snapshot } from '../src/index.js';
import { ORIGIN, TEAM, TEAM_MEMBERS } from './support/world.js';

type Step =
  | { kind: 'api-create'; title: string; format: 'markdown' | 'org' }
  | { kind: 'api-delete'; title: string }
  | { kind: 'push'; writes: { file: string; content: string }[]; deletes: string[] };

const TITLES = ['home', 'guide', 'docs/setup', 'Docs/Usage'];
const FILES = ['home.md', 'guide.org', 'docs/setup.md', 'Docs/Usage.md', 'notes/todo.md', 'logo.png', 'readme.txt'];
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('api-create' as const), title: fc.constantFrom(...TITLES), format: fc.constantFrom('markdown' as const, 'org' as const) }),
  fc.record({ kind: fc.constant('api-delete' as const), title: fc.constantFrom(...TITLES) }),
  fc.record({
    kind: fc.constant('push' as const),
    writes: fc.array(fc.record({ file: fc.constantFrom(...FILES), content: fc.constantFrom('a\n', 'b\n', 'c\n') }), { maxLength: 3 }),
    deletes: fc.array(fc.constantFrom(...FILES), { maxLength: 2 }),
  }),
);

describe('API page writes and pushes to a wiki, interleaved', () => {
  let emulator: Emulator;
  let seeded: Snapshot;
  const http = {
    async request({ url, method = 'GET', headers = {}, body }: { url: string; method?: string; headers?: Record<string, string>; body?: AsyncIterable<Uint8Array> }) {
      const chunks: Uint8Array[] = [];
      if (body) for await (const c of body) chunks.push(c);
      const res = await emulator.handle(new Request(url, { method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }));
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { url, method, statusCode: res.status, statusMessage: res.statusText, headers: Object.fromEntries(res.headers), body: (async function* () { yield bytes; })() };
    },
  };
  const onAuth = () => ({ username: 'dev', password: 'dev-token' });
  const author = { name: 'Dee', email: 'dee@example.com', timestamp: 1772366400, timezoneOffset: 0 };
  const URL = `${ORIGIN}/acme/app.wiki.git`;
  const api = (path: string, method = 'GET', body?: unknown) =>
    emulator.handle(
      new Request(`${ORIGIN}/api/v4/projects/acme%2Fapp${path}`, {
        method,
        headers: { 'PRIVATE-TOKEN': 'maintainer-token', ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
    );

  beforeAll(async () => {
    emulator = await createEmulator({
      fixture: {
        users: TEAM,
        groups: [{ path: 'acme', visibility: 'public' }],
        projects: [{ namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, wiki: [{ title: 'home', content: 'start\n' }] }],
      },
      clock: { now: '2026-03-01T12:00:00Z', frozen: true },
    });
    seeded = emulator.snapshot();
  });

  async function clone() {
    const fs = createFsFromVolume(new Volume());
    await git.clone({ fs, http, dir: '/w', url: URL, onAuth });
    return fs;
  }

  async function apply(s: Step, n: number): Promise<void> {
    emulator.clock.advance('1m');
    if (s.kind === 'api-create') await api('/wikis', 'POST', { title: s.title, content: `api ${n}\n`, format: s.format });
    else if (s.kind === 'api-delete') await api(`/wikis/${encodeURIComponent(s.title.replace(/ /g, '-'))}`, 'DELETE');
    else {
      const fs = await clone();
      for (const w of s.writes) {
        const dir = w.file.includes('/') ? `/w/${w.file.slice(0, w.file.lastIndexOf('/'))}` : '/w';
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(`/w/${w.file}`, `${w.content}${n}\n`);
        await git.add({ fs, dir: '/w', filepath: w.file });
      }
      for (const d of s.deletes) {
        if (!s.writes.some((w) => w.file === d) && fs.existsSync(`/w/${d}`)) await git.remove({ fs, dir: '/w', filepath: d }), fs.unlinkSync(`/w/${d}`);
      }
      await git.commit({ fs, dir: '/w', message: `Push ${n}`, author });
      const pushed = await git.push({ fs, http, dir: '/w', onAuth });
      expect(pushed.ok).toBe(true);
    }
  }

  /** The page files of the head, as a fresh clone has them: slug -> [format, content]. */
  async function pagesOfClone(): Promise<Map<string, [string, string]>> {
    const fs = await clone();
    const out = new Map<string, [string, string]>();
    const formats: Record<string, string> = { md: 'markdown', org: 'org', rdoc: 'rdoc', asciidoc: 'asciidoc' };
    for (const file of await git.listFiles({ fs, dir: '/w' })) {
      const ext = file.slice(file.lastIndexOf('.') + 1);
      if (formats[ext]) out.set(file.slice(0, file.lastIndexOf('.')), [formats[ext]!, fs.readFileSync(`/w/${file}`, 'utf8') as string]);
    }
    return out;
  }

  it('keep the wiki API’s pages equal to the page files of a fresh clone', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        emulator.restore(seeded);
        emulator.clock.set('2026-03-01T12:00:00Z');
        for (const [n, s] of steps.entries()) await apply(s, n);
        const listed = (await (await api('/wikis?with_content=1')).json()) as { slug: string; format: string; content: string }[];
        const model = await pagesOfClone();
        expect(new Map(listed.map((p) => [p.slug, [p.format, p.content]]))).toEqual(model);
      }),
      {
        numRuns: 15,
        // Two files of one slug (an API page, a pushed one in another format): deleting one leaves the other as the page.
        examples: [[[
          { kind: 'api-create', title: 'docs/setup', format: 'org' },
          { kind: 'push', writes: [{ file: 'docs/setup.md', content: 'a\n' }], deletes: [] },
          { kind: 'api-delete', title: 'docs/setup' },
        ]]],
      },
    );
  });
});
