// Fixtures explain their mistakes: one description of the fixture format (each family's part
// from its own folder) checks a fixture before any seed phase runs, names the path of the first
// mistake and the nearest known key, and is published as fixtures/fixture.schema.json.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { createEmulator, EmulatorError, FixtureError } from '../src/index.js';
import { jsonErrorAt } from '../src/core/json-position.js';
import { arrayOf, check, nearest, nullable, num, object, oneOf, opt, recordOf, str, union, type Infer } from '../src/core/schema.js';
import { FIXTURE_SCHEMA_FILE, fixtureSchemaText } from '../scripts/fixture-schema.js';
import { CLI } from './support/cli.js';

const ROLES = '"guest", "planner", "reporter", "developer", "maintainer", "owner", "minimal"';

const MISTAKES: [string, unknown, string][] = [
  ['a misspelt key of a user', { users: [{ usernme: 'bob' }] }, 'users[0].usernme: unknown key; did you mean "username"?'],
  ['a misspelt key of a project', { users: [{ username: 'bob' }], projects: [{ path: 'app', namespace: 'bob', visibilty: 'public' }] }, 'projects[0].visibilty: unknown key; did you mean "visibility"?'],
  ['an array for a fixture', [], 'a fixture is an object with users, groups, projects…; got an array'],
  ['a number for a string', { users: [{ username: 42 }] }, 'users[0].username: expected a string, got a number'],
  ['a value outside a list', { users: [{ username: 'bob' }], projects: [{ path: 'app', namespace: 'bob', visibility: 'secret' }] }, 'projects[0].visibility: expected one of "private", "internal", "public", got "secret"'],
  ['a required key left out', { projects: [{ path: 'app' }] }, 'projects[0].namespace: required, a string'],
  ['one record for a list', { users: { username: 'bob' } }, 'users: expected an array, got an object'],
  ['a misspelt top-level key', { project: [] }, 'project: unknown key; did you mean "projects"?'],
  ['an unknown role', { users: [{ username: 'bob' }], groups: [{ path: 'g', members: [{ user: 'bob', access_level: 'dev' }] }] }, `groups[0].members[0].access_level: expected one of ${ROLES}, got "dev"`],
  ['a number for a file', { users: [{ username: 'bob' }], projects: [{ path: 'app', namespace: 'bob', repository: { files: { 'README.md': 1 } } }] }, 'projects[0].repository.files["README.md"]: expected a string, got a number'],
  ['a string for a boolean', { users: [{ username: 'bob', admin: 'yes' }] }, 'users[0].admin: expected true or false, got a string'],
  ['a British spelling in a family part', { users: [{ username: 'bob' }], projects: [{ path: 'app', namespace: 'bob', labels: [{ name: 'bug', colour: '#ff0000' }] }] }, 'projects[0].labels[0].colour: unknown key; did you mean "color"?'],
];

describe('a fixture is checked before seeding', () => {
  it.each(MISTAKES)('%s', async (_name, fixture, message) => {
    const failure = await createEmulator({ fixture: fixture as never }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(EmulatorError);
    expect(failure).toBeInstanceOf(FixtureError);
    expect((failure as Error).message).toBe(`[gitlab-emulator] ${message}`);
  });

  it('leaves the world as it was when emulator.seed is refused', async () => {
    const e = await createEmulator({ fixture: {} });
    await expect(e.seed({ users: [{ username: 'ann' }, { usernme: 'bob' }] } as never)).rejects.toThrow('users[1].usernme: unknown key; did you mean "username"?');
    const res = await e.handle(new Request('http://gitlab.test/api/v4/users?username=ann'));
    expect(await res.json()).toEqual([]);
  });

  it('accepts the $schema line editors read, and a fixture using every family part seeds as before', async () => {
    const e = await createEmulator({
      fixture: {
        $schema: 'https://unpkg.com/gitlab-emulator/fixtures/fixture.schema.json',
        users: [{ username: 'bob', tokens: [{ token: 'bob-token' }] }],
        groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'bob', access_level: 'owner' }], milestones: [{ title: 'v1' }], labels: [{ name: 'bug' }] }],
        projects: [{ path: 'app', namespace: 'acme', visibility: 'public', repository: { files: { 'README.md': 'hi' }, tags: { v1: 'main' } }, issues: [{ title: 'First' }], releases: [{ tag_name: 'v1' }], wiki: [{ title: 'Home', content: 'hi' }] }],
      } as never,
    });
    const res = await e.handle(new Request('http://gitlab.test/api/v4/projects/acme%2Fapp/releases'));
    expect(((await res.json()) as { tag_name: string }[]).map((r) => r.tag_name)).toEqual(['v1']);
  });

  it('suggests a key only when one is near, and names keys that are not identifiers in brackets', () => {
    expect(nearest('visibilty', ['visibility', 'path'])).toBe('visibility');
    expect(nearest('zzzzzz', ['visibility', 'path'])).toBeUndefined();
    const s = object({ visibility: opt(str) });
    expect(check(s, { 'a b': 1 })).toBe('["a b"]: unknown key');
    expect(check(s, JSON.parse('{"__proto__": 1}'))).toBe('__proto__: unknown key');
    expect(check(s, { constructor: 1 })).toBe('constructor: unknown key');
  });

  it('gives each description the type of what it accepts: opt keys optional, values of oneOf a union of literals', () => {
    const s = object({
      title: str,
      state: opt(oneOf('opened', 'closed')),
      weight: opt(nullable(num)),
      labels: opt(arrayOf(str)),
      files: opt(recordOf(nullable(str))),
      move_step: opt(union(str, num)),
      links: opt(arrayOf(object({ url: str, link_type: opt(oneOf('other', 'package')) }))),
    });
    expectTypeOf<Infer<typeof s>>().toEqualTypeOf<{
      title: string;
      state?: 'opened' | 'closed';
      weight?: number | null;
      labels?: string[];
      files?: Record<string, string | null>;
      move_step?: string | number;
      links?: { url: string; link_type?: 'other' | 'package' }[];
    }>();
    const value: Infer<typeof s> = { title: 'First', state: 'closed', links: [{ url: 'https://example.com' }] };
    expect(check(s, value)).toBeUndefined();
  });
});

describe('the published JSON Schema', () => {
  it('is the committed fixtures/fixture.schema.json, generated from the same description (npm run fixture-schema)', () => {
    expect(readFileSync(FIXTURE_SCHEMA_FILE, 'utf8')).toBe(fixtureSchemaText());
    const schema = JSON.parse(fixtureSchemaText()) as { properties: Record<string, { items?: { properties: Record<string, unknown> } }>; additionalProperties: boolean };
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties.projects!.items!.properties)).toEqual(expect.arrayContaining(['visibility', 'repository', 'issues', 'releases', 'wiki', 'pipelines', 'milestones']));
  });

  it('is exported as gitlab-emulator/fixture.schema.json and shipped with the package', () => {
    expect((pkg.exports as Record<string, unknown>)['./fixture.schema.json']).toBe('./fixtures/fixture.schema.json');
    expect(pkg.files).toContain('fixtures');
  });
});

describe('JSON syntax errors', () => {
  it.each([
    ['{"users": [}', 1, 12],
    ['{\n  "users": [\n    {"username": "bob",}\n  ]\n}', 3, 24],
    ['{\n  "a": tru\n}', 2, 11],
    ['{"a": 1} x', 1, 10],
    ['', 1, 1],
  ])('%j is wrong at line %i, column %i', (text, line, column) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorAt(text)).toMatchObject({ line, column });
  });

  it('finds nothing wrong in JSON that parses', () => {
    for (const text of ['{}', '[1, -2.5e3, "a\\u00e9\\n", true, false, null, {"x": []}]', readFileSync(FIXTURE_SCHEMA_FILE, 'utf8')]) expect(jsonErrorAt(text)).toBeUndefined();
  });
});

async function cli(fixtureText: string): Promise<{ code: number | null; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'gle-'));
  const file = join(dir, 'world.json');
  writeFileSync(file, fixtureText);
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--fixture', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stderr: stderr.replace(file, 'world.json') };
}

describe('the doors that seed', () => {
  it('the CLI names the mistake of a --fixture file, and the line and column of a JSON syntax error', async () => {
    const [wrong, broken] = await Promise.all([cli(JSON.stringify({ users: [{ usernme: 'bob' }] })), cli('{\n  "users": [\n    {"username": "bob",}\n  ]\n}')]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe('gitlab-emulator: fixture world.json: users[0].usernme: unknown key; did you mean "username"?');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^gitlab-emulator: fixture world\.json is not valid JSON at line 3, column 24: /);
  });

  it('POST /-/emulator/seed answers 400 naming the mistake, and seeds nothing', async () => {
    const e = await createEmulator({ fixture: {} });
    const res = await e.handle(
      new Request('http://gitlab.test/-/emulator/seed', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ users: [{ username: 'ann' }], projects: [{ path: 'app', namespace: 'ann', visibilty: 'public' }] }) }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'invalid fixture: projects[0].visibilty: unknown key; did you mean "visibility"?' });
    expect(await (await e.handle(new Request('http://gitlab.test/api/v4/users?username=ann'))).json()).toEqual([]);
  });
});
