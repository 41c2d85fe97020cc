// Repository archives: GET /projects/:id/repository/archive[.format] and the web download that
// release assets link to. The archives are checked as archives (fflate, the system bzip2) and
// against what the real `git archive` writes for the same commit.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { updateProject } from './support/world.js';

const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const HAS_BZIP2 = spawnSync('bzip2', ['--help']).status === 0;
const BASE = 'https://gitlab.example.com';
const LFS_CONTENT = 'the real large object\n';
const LONG_DIR = 'a-directory-name-long-enough-to-need-splitting/'.repeat(3);
const LONG_FILE = `${'f'.repeat(120)}.txt`;

/** Text that compresses, but not to nothing: over one 900k bzip2 block. */
function bulkyText(): string {
  let seed = 7;
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
  const out: string[] = [];
  for (let n = 0; n < 1_000_000; ) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const w = `${words[seed % words.length]}${seed % 97} `;
    out.push(w);
    n += w.length;
  }
  return out.join('');
}

const FIXTURE: Fixture = {
  users: [
    { username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] },
    { username: 'dev', name: 'Dee Veloper', email: 'dev@example.com', tokens: [{ token: 'dev-token', scopes: ['api'] }] },
    { username: 'gus', name: 'Gus Guest', email: 'gus@example.com', tokens: [{ token: 'guest-token', scopes: ['api'] }] },
  ],
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [
    {
      namespace: 'acme',
      path: 'website',
      visibility: 'public',
      creator: 'root',
      members: [{ user: 'dev', access_level: 'developer' }],
      repository: {
        files: {
          'README.md': '# Website\n',
          'src/app.js': 'console.log(1);\n',
          'src/lib/util.js': 'export {};\n',
          'docs/guide.md': 'Read me.\n',
          'empty.txt': '',
          'ünïcode.txt': 'ü\n',
          [`${LONG_DIR}deep.txt`]: 'deep\n',
          [LONG_FILE]: 'flat\n',
          'big.txt': 'lorem ipsum dolor sit amet '.repeat(200),
        },
        lfs: { 'assets/logo.bin': btoa(LFS_CONTENT) },
        branches: { 'feature/x': 'main' },
        commits: [
          { message: 'Add a script', author: 'dev', files: { 'bin/run.sh': '#!/bin/sh\necho run\n' }, executable: ['bin/run.sh'], date: '2024-02-03T04:05:06Z' },
          { branch: 'feature/x', message: 'Feature', files: { 'feature.txt': 'x\n' }, date: '2024-02-04T00:00:00Z' },
          { message: 'Binary', base64: { 'bin/data.bin': btoa('a\0b') }, date: '2024-02-05T00:00:00Z' },
        ],
        tags: { 'v1.0': 'main~1', 'v2.0': { ref: 'main', message: 'Release 2.0\n' } },
      },
    },
    {
      namespace: 'acme',
      path: 'secret',
      visibility: 'private',
      creator: 'root',
      members: [
        { user: 'dev', access_level: 'developer' },
        { user: 'gus', access_level: 'guest' },
      ],
      repository: { files: { 'secret.txt': 'shh\n' } },
    },
    { namespace: 'acme', path: 'empty', visibility: 'public', creator: 'root' },
    { namespace: 'acme', path: 'bulky', visibility: 'public', creator: 'root', repository: { files: { 'bulk.txt': bulkyText() } } },
  ],
};

let e: Emulator;
let dir: string;
let main: string;
let v1: string;
let feature: string;

beforeAll(async () => {
  e = await createEmulator({ fixture: FIXTURE, clock: { now: '2024-05-06T07:08:09Z', frozen: true } });
  dir = mkdtempSync(join(tmpdir(), 'gle-archive-'));
  await e.git('acme/website').export(dir);
  main = (await e.git('acme/website').resolve('main'))!;
  v1 = (await e.git('acme/website').resolve('v1.0'))!;
  feature = (await e.git('acme/website').resolve('feature/x'))!;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function get(path: string, init: { token?: string; headers?: Record<string, string> } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('PRIVATE-TOKEN', init.token);
  const url = path.startsWith('/api') || path.startsWith('/acme') ? `${BASE}${path}` : `${BASE}/api/v4${path}`;
  return e.handle(new Request(url, { headers }));
}

const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const git = (...args: string[]) =>
  execFileSync('git', ['--git-dir', dir, ...args], { env: { ...process.env, TZ: 'UTC', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' }, maxBuffer: 64 << 20 });
const gitArchive = (format: 'tar' | 'zip', prefix: string, sha: string, ...pathspec: string[]) =>
  new Uint8Array(git('archive', `--format=${format}`, `--prefix=${prefix}/`, sha, '--', ...(pathspec.length ? pathspec : ['.'])));
const bunzip = (data: Uint8Array) => {
  const r = spawnSync('bzip2', ['-d', '-c'], { input: data, maxBuffer: 64 << 20 });
  expect(r.status, String(r.stderr)).toBe(0);
  return new Uint8Array(r.stdout);
};

interface TarMember {
  name: string;
  type: string;
  mode: number;
  mtime: number;
  linkname: string;
  content: Uint8Array;
}

/** A ustar reader with pax `path`/`linkpath` records and the global `comment`. */
function readTar(tar: Uint8Array): { comment?: string; members: TarMember[] } {
  const text = (b: Uint8Array) => new TextDecoder().decode(b.subarray(0, b.indexOf(0) < 0 ? b.length : b.indexOf(0)));
  const num = (b: Uint8Array) => parseInt(text(b).trim() || '0', 8);
  const pax = (b: Uint8Array) => {
    const out: Record<string, string> = {};
    for (const line of new TextDecoder().decode(b).split('\n').filter(Boolean)) {
      const [k, ...v] = line.slice(line.indexOf(' ') + 1).split('=');
      out[k!] = v.join('=');
    }
    return out;
  };
  const members: TarMember[] = [];
  let comment: string | undefined;
  let ext: Record<string, string> = {};
  for (let at = 0; at + 512 <= tar.length; ) {
    const h = tar.subarray(at, at + 512);
    if (h.every((x) => x === 0)) break;
    let sum = 8 * 32;
    for (let i = 0; i < 512; i++) if (i < 148 || i >= 156) sum += h[i]!;
    expect(num(h.subarray(148, 156))).toBe(sum);
    const size = num(h.subarray(124, 136));
    const content = tar.slice(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    const type = String.fromCharCode(h[156]!);
    if (type === 'g') comment = pax(content).comment;
    else if (type === 'x') ext = pax(content);
    else {
      const prefix = text(h.subarray(345, 500));
      const name = ext.path ?? (prefix ? `${prefix}/` : '') + text(h.subarray(0, 100));
      members.push({ name, type, mode: num(h.subarray(100, 108)), mtime: num(h.subarray(136, 148)), linkname: ext.linkpath ?? text(h.subarray(157, 257)), content });
      ext = {};
    }
  }
  return { comment, members };
}

interface ZipMember {
  name: string;
  creator: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  size: number;
  internal: number;
  external: number;
  extra: string;
}

/** The central directory of a zip, and its comment. */
function readZip(zip: Uint8Array): { comment: string; members: ZipMember[] } {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.length - 22;
  while (eocd > 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  const commentLength = view.getUint16(eocd + 20, true);
  const members: ZipMember[] = [];
  let at = view.getUint32(eocd + 16, true);
  for (let i = 0; i < view.getUint16(eocd + 10, true); i++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    members.push({
      creator: view.getUint16(at + 4, true),
      method: view.getUint16(at + 10, true),
      time: view.getUint16(at + 12, true),
      date: view.getUint16(at + 14, true),
      crc: view.getUint32(at + 16, true),
      size: view.getUint32(at + 24, true),
      internal: view.getUint16(at + 36, true),
      external: view.getUint32(at + 38, true),
      name: new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength)),
      extra: Array.from(zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), (b) => b.toString(16)).join(' '),
    });
    at += 46 + nameLength + extraLength + view.getUint16(at + 32, true);
  }
  return { comment: new TextDecoder().decode(zip.subarray(eocd + 22, eocd + 22 + commentLength)), members };
}

const prefixOf = (sha: string, ref = 'main') => `website-${ref.replace(/\//g, '-')}-${sha}`;

describe('GET /projects/:id/repository/archive', () => {
  it('answers a tar.gz of the default branch by default, named as Workhorse names it', async () => {
    const res = await get('/projects/acme%2Fwebsite/repository/archive');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefixOf(main)}.tar.gz"`);
    expect(res.headers.get('content-transfer-encoding')).toBe('binary');
    const gz = await bytes(res);
    expect([...gz.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]); // gzip -n
    const { comment, members } = readTar(gunzipSync(gz));
    expect(comment).toBe(main);
    expect(members[0]).toMatchObject({ name: `${prefixOf(main)}/`, type: '5', mode: 0o775 });
    const files = Object.fromEntries(members.filter((m) => m.type === '0').map((m) => [m.name.slice(prefixOf(main).length + 1), m]));
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['README.md', 'src/app.js', 'src/lib/util.js', 'bin/run.sh', 'ünïcode.txt', `${LONG_DIR}deep.txt`, LONG_FILE]));
    expect(files['feature.txt']).toBeUndefined();
    expect(files['bin/run.sh']!.mode).toBe(0o775);
    expect(files['README.md']!.mode).toBe(0o664);
    expect(new TextDecoder().decode(files['README.md']!.content)).toBe('# Website\n');
    // Every member carries the commit's committer time.
    const { committer } = (await e.git('acme/website').log('main'))[0]!.commit;
    expect(new Set(members.map((m) => m.mtime))).toEqual(new Set([committer.timestamp]));
  });

  it.runIf(HAS_GIT)('writes the tar byte for byte as `git archive` does', async () => {
    const tar = await bytes(await get('/projects/1/repository/archive.tar?include_lfs_blobs=false')); // git has no LFS objects
    expect(Buffer.from(tar).equals(Buffer.from(gitArchive('tar', prefixOf(main), main)))).toBe(true);
    const id = spawnSync('git', ['get-tar-commit-id'], { input: tar }).stdout.toString().trim();
    expect(id).toBe(main);
  });

  it.runIf(HAS_GIT)('compresses the same tar with gzip and bzip2', async () => {
    const expected = Buffer.from(gitArchive('tar', prefixOf(main), main));
    const gz = await bytes(await get('/projects/1/repository/archive.tar.gz?include_lfs_blobs=false'));
    expect(Buffer.from(gunzipSync(gz)).equals(expected)).toBe(true);
    if (!HAS_BZIP2) return;
    const res = await get('/projects/1/repository/archive.tar.bz2?include_lfs_blobs=false');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefixOf(main)}.tar.bz2"`);
    const bz = await bytes(res);
    expect(new TextDecoder().decode(bz.subarray(0, 4))).toBe('BZh9');
    expect(Buffer.from(bunzip(bz)).equals(expected)).toBe(true);
  });

  it.runIf(HAS_GIT)('writes a zip with the members, modes, times and comment `git archive` gives', async () => {
    const res = await get('/projects/1/repository/archive.zip?include_lfs_blobs=false');
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefixOf(main)}.zip"`);
    const zip = await bytes(res);
    const theirs = gitArchive('zip', prefixOf(main), main);
    const strip = (m: ZipMember) => ({ ...m, method: undefined }); // deflate encoders differ
    const ours = readZip(zip);
    expect(ours.comment).toBe(main);
    expect(ours.members.map(strip)).toEqual(readZip(theirs).members.map(strip));
    const exec = ours.members.find((m) => m.name.endsWith('bin/run.sh'))!;
    expect([exec.creator, exec.external >>> 16]).toEqual([0x0317, 0o100755]);
    const unzipped = unzipSync(zip);
    const want = unzipSync(theirs);
    expect(Object.keys(unzipped)).toEqual(Object.keys(want));
    for (const [name, content] of Object.entries(want)) expect(Buffer.from(unzipped[name]!).equals(Buffer.from(content))).toBe(true);
  });

  it('accepts GitLab format aliases, and the format parameter when the path has none', async () => {
    const cases: [string, string][] = [
      ['archive.tgz', 'tar.gz'],
      ['archive.gz', 'tar.gz'],
      ['archive.tbz', 'tar.bz2'],
      ['archive.tbz2', 'tar.bz2'],
      ['archive.tb2', 'tar.bz2'],
      ['archive.bz2', 'tar.bz2'],
      ['archive?format=zip', 'zip'],
      ['archive?format=TAR', 'tar'],
      ['archive?format=rar', 'tar.gz'],
      ['archive.tar?format=zip', 'tar'],
    ];
    for (const [path, ext] of cases) {
      const res = await get(`/projects/1/repository/${path}`);
      expect([path, res.status, res.headers.get('content-disposition')]).toEqual([path, 200, `attachment; filename="${prefixOf(main)}.${ext}"`]);
    }
    const res = await get('/projects/1/repository/archive.rar');
    expect([res.status, await res.json()]).toEqual([404, { error: '404 Not Found' }]);
  });

  it('archives the commit a branch, a tag or a sha names, the name keeping the ref as given', async () => {
    let res = await get('/projects/1/repository/archive.tar?sha=feature/x');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="website-feature-x-${feature}.tar"`);
    let tar = readTar(await bytes(res));
    expect(tar.comment).toBe(feature);
    expect(tar.members.map((m) => m.name)).toContain(`website-feature-x-${feature}/feature.txt`);

    res = await get('/projects/1/repository/archive.tar?sha=v1.0');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="website-v1.0-${v1}.tar"`);
    tar = readTar(await bytes(res));
    expect(tar.comment).toBe(v1);
    expect(tar.members.some((m) => m.name.endsWith('bin/data.bin'))).toBe(false);

    res = await get('/projects/1/repository/archive.tar?sha=v2.0'); // annotated: its commit
    expect(readTar(await bytes(res)).comment).toBe(main);

    res = await get(`/projects/1/repository/archive.tar?sha=${v1}`);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="website-${v1}-${v1}.tar"`);
    res = await get(`/projects/1/repository/archive.tar?sha=${v1.slice(0, 8)}`);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="website-${v1.slice(0, 8)}-${v1}.tar"`);
  });

  it('is the same bytes every time', async () => {
    for (const format of ['zip', 'tar.gz', 'tar.bz2']) {
      const a = await bytes(await get(`/projects/1/repository/archive.${format}`));
      const b = await bytes(await get(`/projects/1/repository/archive.${format}?sha=main`));
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    }
  });

  it.runIf(HAS_GIT)('archives only `path`, named after it, as git archive -- <path>', async () => {
    let res = await get('/projects/1/repository/archive.tar?path=src/lib');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${prefixOf(main)}-src-lib.tar"`);
    let tar = await bytes(res);
    expect(readTar(tar).members.map((m) => m.name.slice(m.name.indexOf('/') + 1))).toEqual(['', 'src/', 'src/lib/', 'src/lib/util.js']);
    expect(Buffer.from(tar).equals(Buffer.from(gitArchive('tar', `${prefixOf(main)}-src-lib`, main, 'src/lib')))).toBe(true);
    res = await get('/projects/1/repository/archive.tar?path=README.md');
    tar = await bytes(res);
    expect(readTar(tar).members.map((m) => m.name)).toEqual([`${prefixOf(main)}-README.md/`, `${prefixOf(main)}-README.md/README.md`]);
    res = await get('/projects/1/repository/archive.tar?path=nope');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 File Not Found' }]);
    res = await get('/projects/1/repository/archive.tar?path=../x');
    expect(res.status).toBe(404);
  });

  it.runIf(HAS_GIT)('leaves out exclude_paths, comma separated or as an array, and the directories they empty', async () => {
    const expected = Buffer.from(gitArchive('tar', prefixOf(main), main, '.', ':(exclude)src', ':(exclude)bin/run.sh', ':(exclude)bin/data.bin'));
    for (const query of ['exclude_paths=src,bin/run.sh,bin/data.bin', 'exclude_paths[]=src&exclude_paths[]=bin/run.sh&exclude_paths[]=bin/data.bin']) {
      const tar = await bytes(await get(`/projects/1/repository/archive.tar?include_lfs_blobs=false&${query}`));
      const names = readTar(tar).members.map((m) => m.name.slice(prefixOf(main).length + 1));
      expect(names.filter((n) => n.startsWith('src') || n.startsWith('bin'))).toEqual([]);
      expect(Buffer.from(tar).equals(expected)).toBe(true);
    }
    const res = await get('/projects/1/repository/archive.tar?exclude_paths=nope');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 File Not Found' }]);
  });

  it('puts LFS objects in place of their pointers unless include_lfs_blobs=false', async () => {
    const logo = (tar: Uint8Array) => new TextDecoder().decode(readTar(tar).members.find((m) => m.name.endsWith('assets/logo.bin'))!.content);
    expect(logo(await bytes(await get('/projects/1/repository/archive.tar')))).toBe(LFS_CONTENT);
    const pointer = logo(await bytes(await get('/projects/1/repository/archive.tar?include_lfs_blobs=false')));
    expect(pointer).toMatch(/^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:[0-9a-f]{64}\nsize 22\n$/);
    const zip = unzipSync(await bytes(await get('/projects/1/repository/archive.zip')));
    expect(new TextDecoder().decode(zip[`${prefixOf(main)}/assets/logo.bin`])).toBe(LFS_CONTENT);
  });

  it.runIf(HAS_BZIP2)('writes bzip2 streams of several blocks', async () => {
    const res = await get('/projects/acme%2Fbulky/repository/archive.tar.bz2');
    const tar = bunzip(await bytes(res));
    const bulk = readTar(tar).members.find((m) => m.name.endsWith('/bulk.txt'))!;
    expect(new TextDecoder().decode(bulk.content)).toBe(FIXTURE.projects![3]!.repository!.files!['bulk.txt']);
  });

  it('is 404 File Not Found for an unknown ref and for an empty repository', async () => {
    let res = await get('/projects/1/repository/archive?sha=xxx');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 File Not Found' }]);
    res = await get('/projects/acme%2Fempty/repository/archive.zip');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 File Not Found' }]);
  });

  it('needs read_code: 404 for an anonymous caller of a private project, 403 for a guest or a disabled repository', async () => {
    let res = await get('/projects/acme%2Fsecret/repository/archive');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Project Not Found' }]);
    res = await get('/projects/acme%2Fsecret/repository/archive', { token: 'guest-token' });
    expect([res.status, await res.json()]).toEqual([403, { message: '403 Forbidden' }]);
    res = await get('/projects/acme%2Fsecret/repository/archive.tar', { token: 'dev-token' });
    expect(res.status).toBe(200);
    expect(readTar(await bytes(res)).members.map((m) => m.name.replace(/^[^/]*/, ''))).toEqual(['/', '/secret.txt']);

    const snap = e.snapshot();
    updateProject(e, 'acme/website', (p) => void (p.features.repository = 'disabled'));
    res = await get('/projects/1/repository/archive', { token: 'dev-token' });
    expect([res.status, await res.json()]).toEqual([403, { message: '403 Forbidden' }]);
    e.restore(snap);
  });

  it('refuses hotlinking: a cors or no-cors fetch, or an image or media Accept, is 406', async () => {
    const refused: Record<string, string>[] = [{ 'Sec-Fetch-Mode': 'cors' }, { 'Sec-Fetch-Mode': 'no-cors' }, { Accept: 'image/png' }, { Accept: 'text/css,*/*;q=0.1' }];
    for (const headers of refused) {
      const res = await get('/projects/1/repository/archive.zip', { headers });
      expect([res.status, await res.json()]).toEqual([406, { message: '406 Not Acceptable' }]);
    }
    const allowed: Record<string, string>[] = [{ 'Sec-Fetch-Mode': 'same-origin' }, { 'Sec-Fetch-Mode': 'navigate' }, { Accept: '*/*' }, { Accept: 'image/png;q=0.5, application/zip' }];
    for (const headers of allowed) {
      expect((await get('/projects/1/repository/archive.zip', { headers })).status).toBe(200);
    }
  });

  it('counts project_repositories_archive per project and user when the instance sets it', async () => {
    e.configure({ settings: { rate_limits: { project_repositories_archive: { limit: 2, period_seconds: 60 } } } });
    expect((await get('/projects/1/repository/archive.tar', { token: 'dev-token' })).status).toBe(200);
    expect((await get('/projects/1/repository/archive.tar', { token: 'dev-token' })).status).toBe(200);
    const res = await get('/projects/1/repository/archive.tar', { token: 'dev-token' });
    expect([res.status, await res.json()]).toEqual([429, { message: { error: 'This archive has been requested too many times. Try again later.' } }]);
    expect((await get('/projects/1/repository/archive.tar', { token: 'root-token' })).status).toBe(200);
    expect((await get('/projects/acme%2Fsecret/repository/archive.tar', { token: 'dev-token' })).status).toBe(200);
    expect((await get('/projects/1/repository/archive.tar')).status).toBe(200); // anonymous: 100 a minute
    e.reset(); // the seeded world, and no rate-limit windows
  });
});

describe('GET <web_url>/-/archive/<ref>/<name>.<format>', () => {
  it('serves the URL a release links to, named without the sha', async () => {
    const project = await (await get('/projects/1')).json();
    expect(project.web_url).toBe(`${BASE}/acme/website`);
    const res = await e.handle(new Request(`${project.web_url}/-/archive/v1.0/website-v1.0.zip`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="website-v1.0.zip"');
    expect(res.headers.get('cache-control')).toBe('max-age=60, public, must-revalidate, stale-while-revalidate=60, stale-if-error=300, s-maxage=60');
    const zip = await bytes(res);
    expect(readZip(zip).comment).toBe(v1);
    expect(Object.keys(unzipSync(zip))[0]).toBe('website-v1.0/');
    // The ETag answers If-None-Match.
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const again = await e.handle(new Request(`${project.web_url}/-/archive/v1.0/website-v1.0.zip`, { headers: { 'If-None-Match': etag } }));
    expect(again.status).toBe(304);
  });

  it('reads refs with slashes, shas and other file names as the controller does', async () => {
    let res = await get('/acme/website/-/archive/feature/x/website-feature-x.tar.gz');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="website-feature-x.tar.gz"');
    expect(readTar(gunzipSync(await bytes(res))).comment).toBe(feature);
    res = await get(`/acme/website/-/archive/${main}/website-${main}.tar.bz2`);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="website-${main}.tar.bz2"`);
    expect(res.headers.get('cache-control')).toMatch(/^max-age=3600, public,/);
    res = await get('/acme/website/-/archive/main/anything.tar');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="website-main-${main}.tar"`);
    res = await get('/acme/website/-/archive/main.zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="website-main-${main}.zip"`);
    res = await get('/acme/website/-/archive/main/website-main.zip?path=src');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="website-main-src.zip"');
    expect(Object.keys(unzipSync(await bytes(res)))).toEqual(['website-main-src/', 'website-main-src/src/', 'website-main-src/src/app.js', 'website-main-src/src/lib/', 'website-main-src/src/lib/util.js']);
  });

  it('sends an anonymous caller to sign in, answers 404 to a signed-in one without access, 303 for an empty repository', async () => {
    let res = await get('/acme/secret/-/archive/main/secret-main.zip');
    expect([res.status, res.headers.get('location')]).toEqual([302, `${BASE}/users/sign_in`]);
    res = await get('/acme/secret/-/archive/main/secret-main.zip', { token: 'dev-token' });
    expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'max-age=60, private, must-revalidate, stale-while-revalidate=60, stale-if-error=300, s-maxage=60']);
    expect((await get('/acme/secret/-/archive/main/secret-main.zip', { token: 'guest-token' })).status).toBe(404);
    expect((await get('/acme/nope/-/archive/main/nope-main.zip', { token: 'dev-token' })).status).toBe(404);
    expect((await get('/acme/website/-/archive/nope/website-nope.zip')).status).toBe(404);
    expect((await get('/acme/website/-/archive/main/website-main.rar')).status).toBe(404);
    res = await get('/acme/empty/-/archive/main/empty-main.zip');
    expect([res.status, res.headers.get('location')]).toEqual([303, `${BASE}/acme/empty`]);
  });

  it('answers Node fetch through the server as GitLab does: 406 unless the mode is same-origin', async () => {
    const server = await e.listen({ port: 0 });
    try {
      const url = `${server.url}/acme/website/-/archive/v1.0/website-v1.0.tar`;
      expect((await fetch(url)).status).toBe(406);
      const res = await fetch(url, { mode: 'same-origin' });
      expect(res.status).toBe(200);
      expect(readTar(new Uint8Array(await res.arrayBuffer())).comment).toBe(v1);
    } finally {
      await server.close();
    }
  });
});

describe('symlinks and submodules', () => {
  it.runIf(HAS_GIT)('are written as git archive writes them', async () => {
    const g = e.git('acme/website');
    const repo = g.objects;
    const base = await repo.readCommit(main);
    const short = await repo.writeBlob(new TextEncoder().encode('README.md'));
    const long = await repo.writeBlob(new TextEncoder().encode(`${'../'.repeat(10)}${LONG_FILE}`));
    const root = await repo.readTree(base.tree);
    const tree = await repo.writeTree([
      ...root.values(),
      { name: 'link', mode: '120000', oid: short, type: 'blob' },
      { name: 'long-link', mode: '120000', oid: long, type: 'blob' },
      { name: 'vendor', mode: '160000', oid: main, type: 'commit' },
    ]);
    const sha = await repo.writeCommit({ ...base, tree, parents: [main], message: 'Links\n' });
    const created = await e.handle(
      new Request(`${BASE}/api/v4/projects/1/repository/branches`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'dev-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ branch: 'links', ref: sha }),
      }),
    );
    expect(created.status).toBe(201);
    const linksDir = mkdtempSync(join(tmpdir(), 'gle-archive-links-'));
    try {
      await g.export(linksDir);
      const theirs = (format: string) =>
        new Uint8Array(execFileSync('git', ['--git-dir', linksDir, 'archive', `--format=${format}`, `--prefix=website-links-${sha}/`, sha, '--', '.'], { env: { ...process.env, TZ: 'UTC' } }));
      const tar = await bytes(await get('/projects/1/repository/archive.tar?sha=links&include_lfs_blobs=false'));
      expect(Buffer.from(tar).equals(Buffer.from(theirs('tar')))).toBe(true);
      const members = readTar(tar).members;
      expect(members.find((m) => m.name.endsWith('/link'))).toMatchObject({ type: '2', mode: 0o777, linkname: 'README.md' });
      expect(members.find((m) => m.name.endsWith('/long-link'))).toMatchObject({ type: '2', linkname: `${'../'.repeat(10)}${LONG_FILE}` });
      expect(members.find((m) => m.name.endsWith('/vendor/'))).toMatchObject({ type: '5', mode: 0o775 });
      const zip = readZip(await bytes(await get('/projects/1/repository/archive.zip?sha=links&include_lfs_blobs=false')));
      const strip = (m: ZipMember) => ({ ...m, method: undefined });
      expect(zip.members.map(strip)).toEqual(readZip(theirs('zip')).members.map(strip));
      expect(zip.members.find((m) => m.name.endsWith('/link'))!.external >>> 16).toBe(0o120777);
    } finally {
      rmSync(linksDir, { recursive: true, force: true });
      e.reset();
    }
  });
});
