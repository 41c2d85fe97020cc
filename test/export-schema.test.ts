// An export is a fixture like any other: it passes the published JSON Schema
// (fixtures/fixture.schema.json) and the fixture check, and a damaged one is refused, saying where.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEmulator, EmulatorError, type Fixture } from '../src/index.js';
import { FIXTURE_SCHEMA_FILE } from '../scripts/fixture-schema.js';

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; required?: string[]; additionalProperties?: boolean | JsonSchema; items?: JsonSchema; enum?: unknown[]; const?: unknown; anyOf?: JsonSchema[] };

/** The first mistake of `v` against the JSON Schema subset the fixture schema is written in. */
function mistake(s: JsonSchema, v: unknown, at = '$'): string | undefined {
  if (s.anyOf) return s.anyOf.some((x) => mistake(x, v, at) === undefined) ? undefined : `${at}: matches no alternative`;
  if ('const' in s && v !== s.const) return `${at}: not ${JSON.stringify(s.const)}`;
  if (s.enum && !s.enum.includes(v)) return `${at}: not one of the enum`;
  const type = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  if (s.type && s.type !== type && !(s.type === 'integer' && Number.isInteger(v))) return `${at}: a ${type}, not a ${s.type}`;
  if (Array.isArray(v) && s.items) for (const [i, x] of v.entries()) { const m = mistake(s.items, x, `${at}[${i}]`); if (m) return m; }
  if (type === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of s.required ?? []) if (!(k in o)) return `${at}.${k}: required`;
    for (const [k, x] of Object.entries(o)) {
      const p = s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      if (!p) {
        if (s.additionalProperties === false) return `${at}.${k}: not allowed`;
        continue;
      }
      const m = mistake(p, x, `${at}.${k}`);
      if (m) return m;
    }
  }
  return undefined;
}

const SCHEMA = JSON.parse(readFileSync(FIXTURE_SCHEMA_FILE, 'utf8')) as JsonSchema;

describe('an exported fixture', () => {
  it('passes the published JSON Schema, and the checker sees a wrong one', async () => {
    const e = await createEmulator();
    const fixture = JSON.parse(JSON.stringify(await e.exportFixture())) as Fixture;
    expect(fixture.$schema).toBe('https://unpkg.com/gitlab-emulator/fixtures/fixture.schema.json');
    expect(mistake(SCHEMA, fixture)).toBeUndefined();
    expect(mistake(SCHEMA, { ...fixture, world: { ...fixture.world, version: 2 } })).toBe('$.world.version: not 1');
  });

  it('a damaged export is refused, naming where, and never half seeded', async () => {
    const e = await createEmulator();
    const good = JSON.parse(JSON.stringify(await e.exportFixture())) as Fixture & { world: { core: Record<string, unknown>; families: Record<string, Record<string, unknown>>; parts: { repositories: { storages: Record<string, string>[] } } } };
    const damaged = (change: (f: typeof good) => void) => {
      const f = structuredClone(good);
      change(f);
      return createEmulator({ fixture: f }).then(() => 'seeded', (err: unknown) => (err instanceof EmulatorError ? err.message : `not an EmulatorError: ${String(err)}`));
    };
    expect(await damaged((f) => (f.world.families.nope = {}))).toMatch(/world\.families\.nope: no family is named 'nope'/);
    expect(await damaged((f) => (f.world.families.issues!.nope = 1))).toMatch(/world\.families\.issues\.nope: the family keeps no 'nope'/);
    expect(await damaged((f) => Object.defineProperty(f.world.core, '__proto__', { value: {}, enumerable: true }))).toMatch(/world\.core\["__proto__"\]: no key of the world is named so/);
    expect(await damaged((f) => (f.world.core.users = { $map: 3 }))).toMatch(/world\.core\.users: expected an object|\$map: expected an array/);
    const storage = good.world.parts.repositories.storages[0]!;
    const oid = Object.keys(storage)[0]!;
    expect(await damaged((f) => (f.world.parts.repositories.storages[0]![oid] = 'bm90IGdpdA=='))).toMatch(/not a git object/);
    const other = Object.keys(storage)[1]!;
    expect(await damaged((f) => (f.world.parts.repositories.storages[0]![oid] = storage[other]!))).toMatch(/the object's id is not its content's/);
    expect(await damaged((f) => (f.world.parts.repositories.storages = []))).toMatch(/names storage 1, which world\.parts\.repositories does not hold/);
  });

  it('takes edits beside the world: the instance in the clear, and records added on top of it', async () => {
    const e = await createEmulator();
    const fixture = JSON.parse(JSON.stringify(await e.exportFixture())) as Fixture;
    expect(fixture.instance).toEqual({ tier: 'ultimate', offering: 'self-managed' });
    const copy = await createEmulator({ fixture: { ...fixture, instance: { tier: 'free' }, users: [{ username: 'zed', tokens: [{ token: 'zed-token' }] }], projects: [{ namespace: 'zed', path: 'mine' }] } });
    expect(copy.state.instance.tier).toBe('free');
    const me = await copy.handle(new Request('https://gitlab.example.com/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'zed-token' } }));
    // Ids go on from the exported world's: root and alice are 1 and 2.
    expect(await me.json()).toMatchObject({ id: 3, username: 'zed' });
    const mine = await copy.handle(new Request('https://gitlab.example.com/api/v4/projects/zed%2Fmine', { headers: { 'PRIVATE-TOKEN': 'zed-token' } }));
    expect(await mine.json()).toMatchObject({ id: 3, path_with_namespace: 'zed/mine' });
  });

  it('keeps what JSON has no word for: maps, null-prototype objects, undefined, keys such as __proto__', async () => {
    const { encode, decode } = await import('../src/store/encode.js');
    const nullProto = Object.assign(Object.create(null) as Record<string, number>, { a: 1 });
    const value = { m: new Map<string, unknown>([['__proto__', { x: undefined }], ['constructor', new Set([1, 2])]]), n: nullProto, $map: 'data', bytes: new Uint8Array([0, 255]), inf: Infinity, list: [undefined, -0] };
    const back = decode(JSON.parse(JSON.stringify(encode(value)))) as typeof value;
    expect(back).toEqual(value);
    expect(Object.getPrototypeOf(back.n)).toBeNull();
    expect(Object.is(back.list[1], -0)).toBe(true);
    expect('x' in (back.m.get('__proto__') as object)).toBe(true);
    expect(Object.getPrototypeOf(JSON.parse(JSON.stringify(encode({})))) ).toBe(Object.prototype);
    const proto = decode(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
