// createEmulator({ dataDir }) in this process. A copy of the directory taken right after an answer
// is what a kill at that moment leaves (every write is fsynced before it is answered), so opening
// the copy is a restart after a kill -9. Damage of every kind is refused with a clear error and
// the directory left byte for byte as it was; the world's encoding and its changes round-trip
// whatever the values (a property test).
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { apply, decode, diff, encode } from '../src/persist/codec.js';
import { frame } from '../src/persist/log.js';

const BASE = 'https://gitlab.example.com/api/v4';
const TOKEN = 'root-token';
const FIXTURE = {
  users: [{ username: 'root', admin: true, tokens: [{ token: TOKEN }] }],
  groups: [{ path: 'acme', visibility: 'public' as const }],
  projects: [{ namespace: 'acme', path: 'app', creator: 'root', default_branch: 'main', repository: { files: { 'README.md': '# App\n' } } }],
};

const newDir = () => join(mkdtempSync(join(tmpdir(), 'gle-datadir-lib-')), 'data');

/** What a kill -9 right now would leave: the directory's files as they are on disk (no lock: its process is gone). */
function crashCopy(dir: string): string {
  const copy = newDir();
  mkdirSync(copy, { recursive: true });
  for (const name of readdirSync(dir)) if (name !== 'lock') copyFileSync(join(dir, name), join(copy, name));
  return copy;
}

function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) out[name] = createHash('sha256').update(readFileSync(join(dir, name))).digest('hex');
  return out;
}

async function call(e: Emulator, method: string, path: string, body?: unknown): Promise<any> {
  const res = await e.handle(new Request(`${BASE}${path}`, { method, headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) }));
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const commitFile = (e: Emulator, file: string, content: string) =>
  call(e, 'POST', '/projects/acme%2Fapp/repository/commits', { branch: 'main', commit_message: `add ${file}`, actions: [{ action: 'create', file_path: file, content }] });

async function rawFile(e: Emulator, file: string): Promise<number | string> {
  const res = await e.handle(new Request(`${BASE}/projects/acme%2Fapp/repository/files/${file}/raw?ref=main`, { headers: { 'PRIVATE-TOKEN': TOKEN } }));
  return res.status === 200 ? res.text() : res.status;
}

describe('createEmulator({ dataDir })', () => {
  it('has every answered write on disk when the answer arrives: a restart there serves it, ids continuing', async () => {
    const dir = newDir();
    const e = await createEmulator({ fixture: FIXTURE, dataDir: dir, clock: { now: '2030-01-01T00:00:00Z', frozen: true } });
    const issue = await call(e, 'POST', '/projects/acme%2Fapp/issues', { title: 'kept' });
    const commit = await commitFile(e, 'kept.txt', 'kept\n');
    e.clock.advance('1h');
    const copy = crashCopy(dir);
    const again = await createEmulator({ dataDir: copy });
    expect(await call(again, 'GET', `/projects/acme%2Fapp/issues/${issue.iid}`)).toMatchObject({ id: issue.id, title: 'kept' });
    expect(await rawFile(again, 'kept.txt')).toBe('kept\n');
    expect((await call(again, 'GET', '/projects/acme%2Fapp/repository/commits/main')).id).toBe(commit.id);
    expect(again.clock.now()).toBe(Date.parse('2030-01-01T01:00:00Z'));
    expect(again.clock.frozen).toBe(true);
    expect((await call(again, 'POST', '/projects/acme%2Fapp/issues', { title: 'next' })).iid).toBe(issue.iid + 1);
    // The fixture given seeds a new directory only: an existing one serves what it kept.
    const third = await createEmulator({ dataDir: crashCopy(copy), fixture: {} });
    expect((await call(third, 'GET', '/projects/acme%2Fapp/issues')).map((i: { title: string }) => i.title)).toEqual(['next', 'kept']);
    await Promise.all([e.close(), again.close(), third.close()]);
  });

  it('brings back the very same world after writes across the families (its encoding byte for byte)', async () => {
    const dir = newDir();
    const e = await createEmulator({ dataDir: dir, clock: { now: '2030-01-01T00:00:00Z', frozen: true } });
    const p = '/projects/acme%2Fwebsite';
    const writes: [string, string, unknown][] = [
      ['POST', `${p}/labels`, { name: 'kept', color: '#ff0000' }],
      ['POST', `${p}/milestones`, { title: 'v1' }],
      ['POST', `${p}/issues`, { title: 'An issue', labels: 'kept' }],
      ['POST', `${p}/issues/1/notes`, { body: 'A note' }],
      ['POST', `${p}/issues/1/award_emoji`, { name: 'thumbsup' }],
      ['POST', `${p}/repository/branches`, { branch: 'feature', ref: 'main' }],
      ['POST', `${p}/repository/commits`, { branch: 'feature', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'test:\n  script: echo hi\n' }] }],
      ['POST', `${p}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'A merge request' }],
      ['POST', `${p}/pipeline`, { ref: 'feature' }],
      ['POST', `${p}/variables`, { key: 'KEY', value: 'value' }],
      ['POST', `${p}/hooks`, { url: 'http://hooks.example.com/hook' }],
      ['POST', `${p}/wikis`, { title: 'Home', content: 'Welcome' }],
      ['POST', `${p}/snippets`, { title: 'A snippet', file_name: 'a.txt', content: 'text', visibility: 'public' }],
      ['POST', `${p}/repository/tags`, { tag_name: 'v2.0.0', ref: 'main', message: 'Version 2' }],
      ['POST', `${p}/releases`, { tag_name: 'v2.0.0', name: 'Two' }],
      ['POST', '/groups', { name: 'Other', path: 'other' }],
      ['POST', '/users', { email: 'new@example.com', username: 'newcomer', name: 'New Comer', password: 'a-long-password-1' }],
      ['PUT', p, { description: 'changed' }],
    ];
    const headers = { 'PRIVATE-TOKEN': 'glpat-emulator-root-token', 'Content-Type': 'application/json' };
    for (const [method, path, body] of writes) {
      const res = await e.handle(new Request(`${BASE}${path}`, { method, headers, body: JSON.stringify(body) }));
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
    }
    e.clock.advance('2d');
    e.runUntilIdle();
    await e.settled();
    const copy = crashCopy(dir);
    const again = await createEmulator({ dataDir: copy });
    expect(JSON.stringify(encode(again.state))).toBe(JSON.stringify(encode(e.state)));
    await e.close();
    const closed = await createEmulator({ dataDir: dir });
    expect(JSON.stringify(encode(closed.state))).toBe(JSON.stringify(encode(e.state)));
    await Promise.all([again.close(), closed.close()]);
  });

  it('serves the snapshot alone when its log is one a compaction had already written into it', async () => {
    const dir = newDir();
    const e = await createEmulator({ fixture: FIXTURE, dataDir: dir });
    await call(e, 'POST', '/projects/acme%2Fapp/issues', { title: 'in the log, then in the snapshot' });
    const beforeCompaction = crashCopy(dir);
    await e.close();
    // Stopped between the new snapshot and the new log: the old log follows an older snapshot.
    copyFileSync(join(dir, 'snapshot'), join(beforeCompaction, 'snapshot'));
    const again = await createEmulator({ dataDir: beforeCompaction });
    expect(await call(again, 'GET', '/projects/acme%2Fapp/issues')).toHaveLength(1);
    await call(again, 'POST', '/projects/acme%2Fapp/issues', { title: 'after' });
    const third = await createEmulator({ dataDir: crashCopy(beforeCompaction) });
    expect(await call(third, 'GET', '/projects/acme%2Fapp/issues')).toHaveLength(2);
    await Promise.all([again.close(), third.close()]);
  });

  it('compacts a log grown past 4 MB into a new snapshot while serving, losing nothing', async () => {
    const dir = newDir();
    const e = await createEmulator({ fixture: FIXTURE, dataDir: dir });
    const long = 'x'.repeat(900_000);
    for (let i = 0; i < 6; i++) await call(e, 'POST', '/projects/acme%2Fapp/issues', { title: `long ${i}`, description: long });
    expect(statSync(join(dir, 'world.log')).size).toBeLessThan(2_000_000);
    expect(statSync(join(dir, 'snapshot')).size).toBeGreaterThan(4_000_000);
    await call(e, 'POST', '/projects/acme%2Fapp/issues', { title: 'after the compaction' });
    const again = await createEmulator({ dataDir: crashCopy(dir) });
    const issues = await call(again, 'GET', '/projects/acme%2Fapp/issues?per_page=100');
    expect(issues.map((i: { title: string }) => i.title)).toEqual(['after the compaction', 'long 5', 'long 4', 'long 3', 'long 2', 'long 1', 'long 0']);
    expect(issues[1].description).toBe(long);
    await Promise.all([e.close(), again.close()]);
  });

  it('reset() after a restart returns to the seeded world, and markSeeded() is kept', async () => {
    const dir = newDir();
    const e = await createEmulator({ fixture: FIXTURE, dataDir: dir });
    await call(e, 'POST', '/projects/acme%2Fapp/issues', { title: 'after the seed' });
    await e.close();
    const again = await createEmulator({ dataDir: dir });
    expect(await call(again, 'GET', '/projects/acme%2Fapp/issues')).toHaveLength(1);
    again.reset();
    expect(await call(again, 'GET', '/projects/acme%2Fapp/issues')).toHaveLength(0);
    await call(again, 'POST', '/projects/acme%2Fapp/issues', { title: 'seeded now' });
    again.markSeeded();
    await call(again, 'POST', '/projects/acme%2Fapp/issues', { title: 'not seeded' });
    const third = await createEmulator({ dataDir: crashCopy(dir) });
    expect(await call(third, 'GET', '/projects/acme%2Fapp/issues')).toHaveLength(2);
    third.reset();
    expect((await call(third, 'GET', '/projects/acme%2Fapp/issues')).map((i: { title: string }) => i.title)).toEqual(['seeded now']);
    await Promise.all([again.close(), third.close()]);
  });

  it('keeps a history restored to a snapshot and written again: each world sees only its own objects', async () => {
    const dir = newDir();
    const e = await createEmulator({ fixture: FIXTURE, dataDir: dir });
    await commitFile(e, 'one.txt', '1');
    const before = e.snapshot();
    await commitFile(e, 'two.txt', '2');
    e.restore(before);
    await commitFile(e, 'three.txt', '3');
    await e.close();
    const again = await createEmulator({ dataDir: dir });
    expect([await rawFile(again, 'one.txt'), await rawFile(again, 'two.txt'), await rawFile(again, 'three.txt')]).toEqual(['1', 404, '3']);
    await commitFile(again, 'four.txt', '4');
    const third = await createEmulator({ dataDir: crashCopy(dir) });
    expect(await rawFile(third, 'four.txt')).toBe('4');
    const titles = (await call(third, 'GET', '/projects/acme%2Fapp/repository/commits?ref_name=main')).map((c: { title: string }) => c.title);
    expect(titles.slice(0, 3)).toEqual(['add four.txt', 'add three.txt', 'add one.txt']);
    await Promise.all([again.close(), third.close()]);
  });

  it('drops a torn last record of either log, keeps what came before, and appends after it', async () => {
    const dir = newDir();
    const e = await createEmulator({ fixture: FIXTURE, dataDir: dir });
    await call(e, 'POST', '/projects/acme%2Fapp/issues', { title: 'answered' });
    const copy = crashCopy(dir);
    await e.close();
    appendFileSync(join(copy, 'world.log'), Buffer.from([0xff, 0x00, 0x00, 0x00, 0x12, 0x34]));
    appendFileSync(join(copy, 'objects.log'), Buffer.from([0x40, 0x00]));
    const again = await createEmulator({ dataDir: copy });
    expect(await call(again, 'GET', '/projects/acme%2Fapp/issues')).toHaveLength(1);
    await commitFile(again, 'after.txt', 'after');
    const third = await createEmulator({ dataDir: crashCopy(copy) });
    expect(await rawFile(third, 'after.txt')).toBe('after');
    await Promise.all([again.close(), third.close()]);
  });

  it('refuses a damaged directory with a clear error and leaves every byte of it as it was', async () => {
    const dir = newDir();
    const e = await createEmulator({ fixture: FIXTURE, dataDir: dir });
    await call(e, 'POST', '/projects/acme%2Fapp/issues', { title: 'one' });
    await call(e, 'POST', '/projects/acme%2Fapp/issues', { title: 'two' });
    const damaged = (mutate: (copy: string) => void) => {
      const copy = crashCopy(dir);
      mutate(copy);
      return copy;
    };
    const flip = (file: string, at: (bytes: Buffer) => number) => (copy: string) => {
      const bytes = readFileSync(join(copy, file));
      const i = at(bytes);
      bytes[i] = bytes[i]! ^ 0x55;
      writeFileSync(join(copy, file), bytes);
    };
    const cases: [string, (copy: string) => void, RegExp][] = [
      // A change in the middle of the log, with another after it.
      ['world.log', flip('world.log', (b) => 8 + b.readUInt32LE(0) + 20), /is damaged: the record at byte \d+ fails its checksum and \d+ bytes follow it; it was left as it is/],
      ['snapshot', flip('snapshot', (b) => b.length >> 1), /is damaged: its snapshot is not one whole record/],
      ['objects.log', flip('objects.log', () => 12), /is damaged: the record at byte 0 fails its checksum/],
      ['format.json', (copy) => writeFileSync(join(copy, 'format.json'), '{"format": "gitlab-em'), /is damaged: format.json is not the JSON this directory starts with/],
      ['no snapshot', (copy) => rmSync(join(copy, 'snapshot')), /is damaged: its snapshot is missing \(world.log is there\)/],
      ['a snapshot of another shape', (copy) => writeFileSync(join(copy, 'snapshot'), frame(new TextEncoder().encode('{"format":"gitlab-emulator-data","version":1}'))), /is damaged: its snapshot lacks the world, the seeded world or the clock; it was left as it is/],
    ];
    for (const [, mutate, message] of cases) {
      const copy = damaged(mutate);
      const before = contents(copy);
      await expect(createEmulator({ dataDir: copy })).rejects.toThrow(message);
      expect(contents(copy)).toEqual(before);
    }
    await e.close();
  });

  it('serves a directory of data format version 1 and marks it version 2 (a push may add a pack record, which version 1 has not)', async () => {
    const dir = newDir();
    const e = await createEmulator({ fixture: FIXTURE, dataDir: dir, clock: { now: '2030-01-01T00:00:00Z', frozen: true } });
    const issue = await call(e, 'POST', '/projects/acme%2Fapp/issues', { title: 'kept' });
    await e.close();
    const formatFile = join(dir, 'format.json');
    expect(JSON.parse(readFileSync(formatFile, 'utf8'))).toMatchObject({ version: 2 });
    writeFileSync(formatFile, `${JSON.stringify({ format: 'gitlab-emulator-data', version: 1, writtenBy: '0.0.9' })}\n`);
    const again = await createEmulator({ dataDir: dir });
    expect(await call(again, 'GET', `/projects/acme%2Fapp/issues/${issue.iid}`)).toMatchObject({ title: 'kept' });
    expect(JSON.parse(readFileSync(formatFile, 'utf8'))).toMatchObject({ format: 'gitlab-emulator-data', version: 2 });
    await again.close();
  });

  it('refuses a directory of other files, a file, and a directory this process has open', async () => {
    const other = newDir();
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'notes.txt'), 'mine');
    await expect(createEmulator({ dataDir: other })).rejects.toThrow(/is not a gitlab-emulator data directory \(it holds notes\.txt\); give a new or empty directory/);
    expect(readdirSync(other)).toEqual(['notes.txt']);
    await expect(createEmulator({ dataDir: join(other, 'notes.txt') })).rejects.toThrow(/notes\.txt: is not a directory/);

    const dir = newDir();
    const e = await createEmulator({ fixture: FIXTURE, dataDir: dir });
    await expect(createEmulator({ dataDir: dir })).rejects.toThrow(/is already open in this process; close\(\) the emulator that has it first/);
    await e.close();
    // A lock naming this very process, which has not opened the directory: left by an earlier
    // process that had the same id (a container's first process is 1 on every start).
    writeFileSync(join(dir, 'lock'), `${process.pid}\n`);
    const again = await createEmulator({ dataDir: dir });
    await again.close();
  });
});

// ---- The encoding and the changes, against any value the world may hold ----

const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', '$', 'toString', ''), fc.string({ maxLength: 6 }));
const leaf = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 6 }),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('record'), tie('map'), tie('array'), tie('bare')),
  record: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((entries) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  }),
  bare: fc.array(fc.tuple(key, tie('value')), { maxLength: 3 }).map((entries) => {
    const o = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of entries) o[k] = v;
    return o;
  }),
  map: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((entries) => new Map(entries)),
  array: fc.array(tie('value'), { maxLength: 4 }),
}));

/** Two worlds that share some of their parts, as two versions of the world do. */
const versions = fc.tuple(value, value, fc.array(fc.tuple(key, value), { maxLength: 4 }), fc.array(key, { maxLength: 2 })).map(([a, b, edits, removed]) => {
  if (typeof a !== 'object' || a === null || Array.isArray(a) || a instanceof Uint8Array) return [a, b] as const;
  const next: any = a instanceof Map ? new Map(a) : Object.getPrototypeOf(a) === null ? Object.assign(Object.create(null), a) : { ...a };
  for (const k of removed) {
    if (next instanceof Map) next.delete(k);
    else delete next[k];
  }
  for (const [k, v] of edits) {
    if (next instanceof Map) next.set(k, v);
    else Object.defineProperty(next, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return [a, next] as const;
});

describe('the world as kept', () => {
  it('decodes to what was encoded, through JSON', () => {
    fc.assert(
      fc.property(value, (v) => {
        // Compared as encoded, which names every type and prototype, -0, NaN and keys in their order.
        const back = decode(JSON.parse(JSON.stringify(encode(v))));
        expect(JSON.stringify(encode(back))).toBe(JSON.stringify(encode(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('applies the changes between two versions to the first and gets the second', () => {
    fc.assert(
      fc.property(versions, ([a, b]) => {
        const changes = JSON.parse(JSON.stringify(diff(a, b)));
        // Compared as encoded (immer's freeze gives a frozen Map methods of its own that refuse writes).
        expect(JSON.stringify(encode(apply(a, changes)))).toBe(JSON.stringify(encode(b)));
      }),
      { numRuns: 300 },
    );
  });
});
