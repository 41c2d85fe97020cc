// Repositories are real git (DESIGN.md "Git objects are append-only, refs are state"): the
// objects the emulator writes pass `git fsck`, their ids are the ones git computes, and any
// sequence of file changes through the API leaves the tree a plain model predicts.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import git from 'isomorphic-git';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';

const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'gle-git-'));
  dirs.push(d);
  return d;
}

const run = (dir: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });

const FIXTURE: Fixture = {
  users: [
    { username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true },
    { username: 'dev', name: 'Dee Veloper', email: 'dev@example.com', tokens: [{ token: 'dev-token', scopes: ['api'] }] },
  ],
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [
    {
      namespace: 'acme',
      path: 'app',
      creator: 'root',
      members: [{ user: 'dev', access_level: 'developer' }],
      repository: {
        files: { 'README.md': '# App\n', 'src/main.c': 'int main() { return 0; }\n' },
        branches: { develop: 'main' },
        commits: [
          { branch: 'develop', message: 'Develop', author: 'dev', files: { 'dev.txt': 'd\n' }, executable: ['dev.txt'] },
          { message: 'No trailing newline', files: { 'src/main.c': null, 'src/lib/util.c': 'x' } },
        ],
        tags: { 'v1.0': 'main', 'v0.9': { ref: 'main~1', message: 'Annotated\n' } },
      },
    },
    { namespace: 'acme', path: 'empty', creator: 'root', members: [{ user: 'dev', access_level: 'maintainer' }] }, // the first push to an empty repository needs a maintainer at GitLab's default branch protection (2)
  ],
};

const world = () => createEmulator({ fixture: FIXTURE, clock: { now: '2024-05-06T07:08:09Z', frozen: true } });

function api(e: Emulator, method: string, path: string, json?: unknown) {
  return e.handle(
    new Request(`https://gitlab.example.com/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': 'dev-token', ...(json ? { 'Content-Type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    }),
  );
}

describe('emulator.git(project)', () => {
  it('gives the refs, files at a revision and the log', async () => {
    const e = await world();
    const g = e.git('acme/app');
    expect(g.refs()).toMatchObject({ head: 'main', branches: { main: expect.any(String), develop: expect.any(String) } });
    expect(g.refs().tags['v0.9']).toMatchObject({ message: 'Annotated' });
    expect(await g.files()).toEqual({ 'README.md': '# App\n', 'src/lib/util.c': 'x' });
    expect(await g.files('develop')).toMatchObject({ 'dev.txt': 'd\n', 'src/main.c': 'int main() { return 0; }\n' });
    expect((await g.log()).map((c) => c.commit.message)).toEqual(['No trailing newline', 'Initial commit']);
    expect(g.refs()).toEqual(e.git(1).refs());
  });

  it('is a gitdir isomorphic-git reads by itself', async () => {
    const e = await world();
    const g = e.git('acme/app');
    const main = g.refs().branches.main!;
    const { commit } = await git.readCommit({ fs: g.fs, gitdir: g.gitdir, oid: main });
    expect(commit).toMatchObject({ message: 'No trailing newline\n', author: { name: 'Administrator', email: 'admin@example.com', timestamp: Date.parse('2024-05-06T07:08:09Z') / 1000 } });
    const { blob } = await git.readBlob({ fs: g.fs, gitdir: g.gitdir, oid: main, filepath: 'README.md' });
    expect(new TextDecoder().decode(blob)).toBe('# App\n');
    const log = await git.log({ fs: g.fs, gitdir: g.gitdir, ref: main });
    expect(log).toHaveLength(2);
  });

  it('throws for an unknown project', async () => {
    const e = await world();
    expect(() => e.git('acme/nope')).toThrow(/no project/);
  });
});

describe('fixtures', () => {
  it('refuse unknown authors and refs with a clear message, seeding nothing', async () => {
    const e = await world();
    const before = e.snapshot();
    const bad = (repository: NonNullable<Fixture['projects']>[number]['repository']) =>
      e.seed({ projects: [{ namespace: 'acme', path: 'bad', creator: 'root', repository }] });
    await expect(bad({ commits: [{ message: 'm', author: 'ghost', files: { a: 'a' } }] })).rejects.toThrow(/unknown commit author 'ghost'/);
    await expect(bad({ files: { a: 'a' }, branches: { b: 'nope' } })).rejects.toThrow(/unknown ref 'nope'/);
    await expect(bad({ files: { a: 'a' }, commits: [{ message: 'm', files: { 'a/b': 'x' } }] })).rejects.toThrow(/A file with this name already exists/);
    expect(e.snapshot().state).toBe(before.state);
  });
});

describe.skipIf(!HAS_GIT)('the real git', () => {
  it('checks an exported repository and reads the same history', async () => {
    const e = await world();
    await api(e, 'POST', '/projects/acme%2Fapp/repository/files/docs%2Fguide%2Emd', { branch: 'main', content: 'Guide\n', commit_message: 'Add guide\n\nSigned-off-by: Dee <dev@example.com>' });
    const g = e.git('acme/app');
    const dir = tempDir();
    await g.export(dir);
    run(dir, 'fsck', '--full', '--strict', '--no-dangling');
    const refs = g.refs();
    expect(run(dir, 'rev-parse', 'main').trim()).toBe(refs.branches.main);
    expect(run(dir, 'rev-parse', 'v0.9^{commit}').trim()).toBe(refs.tags['v0.9']!.commit);
    expect(run(dir, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
    const ours = (await g.log('main')).map((c) => [c.sha, c.commit.author.name, c.commit.author.email, String(c.commit.author.timestamp), c.commit.message.split('\n')[0]].join('|'));
    const theirs = run(dir, 'log', '--format=%H|%an|%ae|%at|%s', 'main').trim().split('\n');
    expect(theirs).toEqual(ours);
    expect(run(dir, 'show', '-s', '--format=%B', 'main')).toBe('Add guide\n\nSigned-off-by: Dee <dev@example.com>\n');
    expect(run(dir, 'ls-tree', '-r', '--name-only', 'develop').trim().split('\n')).toEqual(['README.md', 'dev.txt', 'src/main.c']);
    expect(run(dir, 'ls-tree', 'develop', 'dev.txt')).toMatch(/^100755 blob /);
    expect(run(dir, 'cat-file', '-p', 'main:docs/guide.md')).toBe('Guide\n');
    // The commit id is the hash git computes over the commit's bytes.
    const raw = execFileSync('git', ['--git-dir', dir, 'cat-file', 'commit', 'main']);
    const rehashed = execFileSync('git', ['hash-object', '-t', 'commit', '--stdin'], { input: raw, encoding: 'utf8' }).trim();
    expect(rehashed).toBe(refs.branches.main);
  });

  it('blames as git blame does', async () => {
    const e = await world();
    const put = (content: string, message: string) =>
      api(e, 'PUT', '/projects/acme%2Fapp/repository/files/README%2Emd', { branch: 'main', content, commit_message: message });
    expect((await put('# App\nintro\nbody\n', 'two lines')).status).toBe(200);
    expect((await put('# App\nIntro\nbody\nend\n', 'capital')).status).toBe(200);
    expect((await put('top\n# App\nIntro\nbody\nend\n', 'top')).status).toBe(200);
    const dir = tempDir();
    await e.git('acme/app').export(dir);
    const porcelain = run(dir, 'blame', '--porcelain', 'main', '--', 'README.md');
    const theirs = porcelain.split('\n').filter((l) => /^[0-9a-f]{40} /.test(l)).map((l) => l.slice(0, 40));
    const ranges = await (await api(e, 'GET', '/projects/acme%2Fapp/repository/files/README%2Emd/blame?ref=main')).json();
    const ours = ranges.flatMap((r: { commit: { id: string }; lines: string[] }) => r.lines.map(() => r.commit.id));
    expect(ours).toEqual(theirs);
  });

  it('blames random histories full of duplicate lines exactly as git blame does', async () => {
    // Few distinct lines (blank, indented, braces) make many equally long diffs; git picks one
    // by its own rules (xdiff's discarding of lines, its Myers split, sliding and indent heuristic),
    // and blame follows merges, modes, deletions and the common tail git leaves out of the diff.
    const SHORT = ['a\n', 'b\n', 'c\n', '\n', '  x\n', '}\n', '    y\n', '\tz\n', 'a\n', 'b\n', '\f\n', 'ünï\n'];
    const DUPS = ['a\n', 'a\n', 'a\n', 'b\n', '\n', '  a\n'];
    const LONG = ['a line long enough to fill a block quickly\n', '\n', '    an indented body line of some length\n', '}\n', 'é ✓ 😀 and more text after them\n'];
    const line = (pool: string[]) => fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fc.nat(40).map((n) => `u${n}\n`) });
    // A block of new lines with a few old ones inside: xdiff leaves lines with many matches out of
    // its LCS when they sit amid lines with none.
    const block = fc.array(fc.oneof({ weight: 6, arbitrary: fc.nat().map((n) => `n${n}\n`) }, { weight: 1, arbitrary: fc.constant('a\n') }), { minLength: 6, maxLength: 14 });
    // An edit replaces lines, or repeats the line at a place (a change that could sit at any of
    // several places: where git slides it decides which copy is new).
    const edits = (pool: string[]) =>
      fc.array(
        fc.oneof(
          fc.record({ at: fc.nat(), del: fc.nat(5), ins: fc.oneof({ weight: 4, arbitrary: fc.array(line(pool), { maxLength: 5 }) }, { weight: 1, arbitrary: block }) }),
          fc.record({ at: fc.nat(), copies: fc.integer({ min: 1, max: 3 }) }),
        ),
        { minLength: 1, maxLength: 4 },
      );
    const mode = fc.constantFrom<string | null>('100644', '100644', '100644', '100644', '100755', '120000', null);
    const history = fc.constantFrom(SHORT, SHORT, DUPS, LONG).chain((pool) =>
      fc.record({
        start: fc.array(line(pool), { maxLength: pool === LONG ? 100 : 40, size: 'max' }),
        // Runs past 1 KiB: git leaves whole blocks of the common tail out of the diff.
        run: fc.option(fc.record({ text: fc.constantFrom(...pool), count: fc.integer({ min: 100, max: 700 }) }), { freq: 4 }),
        steps: fc.array(
          fc.oneof(
            { weight: 4, arbitrary: fc.record({ edit: edits(pool), mode }) },
            { weight: 1, arbitrary: fc.record({ left: fc.array(edits(pool), { minLength: 1, maxLength: 3 }), right: fc.array(edits(pool), { minLength: 1, maxLength: 3 }), pick: fc.constantFrom(0, 1, 2), edit: edits(pool) }) },
          ),
          { minLength: 1, maxLength: 8, size: 'max' },
        ),
        noNewline: fc.boolean(),
      }),
    );
    type Edit = ({ at: number; del: number; ins: string[] } | { at: number; copies: number })[];
    const apply = (lines: string[], edit: Edit) => {
      const out = [...lines];
      for (const e of edit) {
        const at = e.at % (out.length + 1);
        if ('copies' in e) out.splice(at, 0, ...Array<string>(e.copies).fill(out[at] ?? 'a\n'));
        else out.splice(at, e.del, ...e.ins);
      }
      return out;
    };
    const base = await world();
    const enc = new TextEncoder();
    let branch = 0;
    // Many small files: a memory-backed directory, where there is one, keeps this fast.
    const disk = existsSync('/dev/shm') ? mkdtempSync(join('/dev/shm', 'gle-blame-')) : tempDir();
    dirs.push(disk);
    execFileSync('git', ['init', '--quiet', '--bare', disk]);
    const copied = new Set<string>();

    await fc.assert(
      fc.asyncProperty(history, async (h) => {
        const e = base.fork();
        e.restore(base.snapshot());
        const objects = e.git('acme/app').objects;
        const written: string[] = [];
        const keep = (oid: string) => (written.push(oid), oid);
        const other = keep(await objects.writeBlob(enc.encode('other\n')));
        let time = 1_700_000_000;
        const commit = async (parents: string[], lines: string[], fileMode: string | null = '100644') => {
          const entries = [{ name: 'other.txt', mode: '100644', oid: other, type: 'blob' as const }];
          if (fileMode) entries.push({ name: 'f.txt', mode: fileMode, oid: keep(await objects.writeBlob(enc.encode(lines.join('')))), type: 'blob' });
          const who = { name: 'Dee', email: 'dev@example.com', timestamp: time++, offset: 0 };
          const tree = keep(await objects.writeTree(entries));
          return keep(await objects.writeCommit({ tree, parents, author: who, committer: who, message: `c${time}\n` }));
        };
        let content = h.run ? [...h.start, ...Array<string>(h.run.count).fill(h.run.text), ...h.start] : h.start;
        let head = await commit([], content);
        for (const s of h.steps) {
          if ('left' in s) {
            let [left, right, lh, rh] = [content, content, head, head];
            for (const ed of s.left) (left = apply(left, ed)), (lh = await commit([lh], left));
            for (const ed of s.right) (right = apply(right, ed)), (rh = await commit([rh], right));
            content = s.pick === 0 ? left : s.pick === 1 ? right : apply(left, s.edit);
            head = await commit([lh, rh], content);
          } else {
            content = apply(content, s.edit);
            head = await commit([head], content, s.mode);
          }
        }
        if (h.noNewline && content.length) content = [...content.slice(0, -1), content[content.length - 1]!.slice(0, -1)];
        head = await commit([head], content);
        const name = `blame-${branch++}`;
        expect((await api(e, 'POST', `/projects/acme%2Fapp/repository/branches?branch=${name}&ref=${head}`)).status).toBe(201);
        const res = await api(e, 'GET', `/projects/acme%2Fapp/repository/files/f%2Etxt/blame?ref=${name}`);
        const ours = ((await res.json()) as { commit: { id: string }; lines: string[] }[]).flatMap((r) => r.lines.map(() => r.commit.id));
        // One bare repository on disk for every run: the run's loose objects are copied byte for byte.
        for (const oid of written) {
          if (copied.has(oid)) continue;
          mkdirSync(join(disk, 'objects', oid.slice(0, 2)), { recursive: true });
          writeFileSync(join(disk, 'objects', oid.slice(0, 2), oid.slice(2)), objects.db.volume.readFileSync(objects.objectPath(oid)) as Uint8Array);
          copied.add(oid);
        }
        writeFileSync(join(disk, 'refs', 'heads', name), `${head}\n`);
        const porcelain = run(disk, 'blame', '--porcelain', name, '--', 'f.txt');
        const theirs = porcelain.split('\n').filter((l) => /^[0-9a-f]{40} \d+ \d+/.test(l)).map((l) => l.slice(0, 40));
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 200 },
    );
  }, 60_000); // hundreds of real git runs: a guard against a hang, not a time limit

  it('any sequence of creates, updates and deletes matches a plain model of the tree', async () => {
    const PATHS = ['a.txt', 'b.md', 'dir/c.txt', 'dir/d.txt', 'dir/sub/e.txt', 'dir', 'x/y/z.bin', 'dir/sub', 'ünï côdé.txt'];
    type Content = { text?: string; bytes?: Uint8Array };
    const content: fc.Arbitrary<Content> = fc.oneof(
      fc.string({ maxLength: 40 }).filter((s) => !s.includes('\0')).map((text): Content => ({ text })),
      fc.uint8Array({ maxLength: 40 }).map((bytes): Content => ({ bytes })),
    );
    const op = fc.record({
      action: fc.constantFrom('create', 'update', 'delete') as fc.Arbitrary<'create' | 'update' | 'delete'>,
      path: fc.constantFrom(...PATHS),
      content,
      executable: fc.option(fc.boolean(), { nil: undefined }),
    });
    const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
    const enc = (c: Content) => (c.bytes ? c.bytes : new TextEncoder().encode(c.text!));
    const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
    const base = await world();

    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 8 }), async (ops) => {
        const e = base.fork();
        e.restore(base.snapshot());
        const model = new Map<string, { bytes: Uint8Array; exec: boolean }>();
        for (const o of ops) {
          const url = `/projects/acme%2Fempty/repository/files/${encodeURIComponent(o.path)}`;
          const bytes = enc(o.content);
          const body: Record<string, unknown> = { branch: 'main', commit_message: `${o.action} ${o.path}` };
          if (o.action !== 'delete') {
            Object.assign(body, o.content.bytes ? { content: b64(o.content.bytes), encoding: 'base64' } : { content: o.content.text });
            if (o.executable !== undefined) body.execute_filemode = o.executable;
          }
          const existing = model.get(o.path);
          const isDir = [...model.keys()].some((p) => p.startsWith(`${o.path}/`));
          const blocked = [...model.keys()].some((p) => o.path.startsWith(`${p}/`));
          const exec = o.executable ?? existing?.exec ?? false;
          const ok =
            o.action === 'create'
              ? !existing && !isDir && !blocked
              : !!existing && (o.action === 'delete' || !(same(existing.bytes, bytes) && existing.exec === exec));
          const res = await api(e, o.action === 'create' ? 'POST' : o.action === 'update' ? 'PUT' : 'DELETE', url, body);
          expect(res.status, `${o.action} ${o.path}`).toBe(ok ? (o.action === 'create' ? 201 : o.action === 'update' ? 200 : 204) : 400);
          if (!ok) continue;
          if (o.action === 'delete') model.delete(o.path);
          else model.set(o.path, { bytes, exec });
        }
        const g = e.git('acme/empty');
        const sha = await g.resolve('main');
        expect(sha === null).toBe(model.size === 0 && ops.every((o) => o.action !== 'create'));
        for (const [path, f] of model) expect(same((await g.readFile(path))!, f.bytes)).toBe(true);
        if (!sha) return;
        expect(Object.keys(await g.files()).sort()).toEqual([...model.keys()].sort());
        const dir = tempDir();
        await g.export(dir);
        run(dir, 'fsck', '--full', '--strict', '--no-dangling');
        expect(run(dir, 'rev-parse', 'main').trim()).toBe(sha);
        const listing = run(dir, 'ls-tree', '-r', '-z', 'main').split('\0').filter(Boolean);
        const tree = new Map(listing.map((l) => [l.slice(l.indexOf('\t') + 1), l.slice(0, 6)]));
        expect([...tree.keys()].sort()).toEqual([...model.keys()].sort());
        for (const [path, f] of model) expect(tree.get(path)).toBe(f.exec ? '100755' : '100644');
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 25 },
    );
  });
});
