// GitLab's HTTP conventions shared by every route (spec: Conventions, Errors, Versioning;
// reference 0.1-0.3, 0.6, 0.8, 0.9): routing, parameters, errors, caching and headers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server } from '../src/index.js';
import { idOf, updateProject } from './support/world.js';
import { hash53 } from '../src/core/hash.js';

const ORIGIN = 'https://gitlab.example.com';
const BASE = `${ORIGIN}/api/v4`;
const ROOT = { 'PRIVATE-TOKEN': 'root-token' };
const ALICE = { 'PRIVATE-TOKEN': 'alice-token' };

const fixture: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'alice', tokens: [{ token: 'alice-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] }],
  projects: [
    { namespace: 'acme', path: 'website', visibility: 'public', creator: 'alice', topics: ['web'] },
    { namespace: 'acme', path: 'archive', visibility: 'public', creator: 'alice' },
  ],
};

let gitlab: Emulator;

beforeEach(async () => {
  gitlab = await createEmulator({ fixture, clock: { now: '2030-01-01T12:00:00.000Z', frozen: true } });
});

async function call(path: string, init: RequestInit = {}, base = BASE) {
  const res = await gitlab.handle(new Request(`${base}${path}`, init));
  const text = await res.text();
  let body: unknown = text;
  if (text !== '' && (res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, body: body as any };
}

const json = (method: string, body: unknown, headers: Record<string, string> = ALICE): RequestInit => ({
  method,
  headers: { ...headers, 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

const linkOf = (headers: Headers, rel: string) => {
  const m = new RegExp(`<([^>]*)>; rel="${rel}"`).exec(headers.get('link') ?? '');
  return m ? m[1]! : undefined;
};

describe('routing', () => {
  it('an unknown route under /api/v4 is 404 with Grape\'s envelope', async () => {
    for (const path of ['/nope', '/projects/1/nope/deeper', '/']) {
      const res = await call(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
    }
  });

  it('a known path with a method it does not have is 404, not 405', async () => {
    const res = await call('/user', { method: 'DELETE', headers: ROOT });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: '404 Not Found' });
  });

  it('a path outside the API is 404', async () => {
    const res = await gitlab.handle(new Request(`${ORIGIN}/explore`));
    expect(res.status).toBe(404);
  });

  it('/api/v3 is gone: 410', async () => {
    const res = await call('/projects', {}, `${ORIGIN}/api/v3`);
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  it('a trailing slash reaches the same route', async () => {
    const plain = await call('/projects/acme%2Fwebsite', { headers: ALICE });
    const slashed = await call('/projects/acme%2Fwebsite/', { headers: ALICE });
    expect(slashed.status).toBe(200);
    expect(slashed.text).toBe(plain.text);
    expect((await call('/user/', { headers: ALICE })).body.username).toBe('alice');
  });

  it('an unencoded slash in a project path matches no route', async () => {
    expect((await call('/projects/acme/website')).body).toEqual({ error: '404 Not Found' });
  });

  it('a path parameter is decoded once: %252F is a literal %2F, not a slash', async () => {
    const res = await call('/projects/acme%252Fwebsite');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('HEAD', () => {
  it('mirrors GET: same status and headers, no body', async () => {
    const get = await call('/projects?per_page=1', { headers: ALICE });
    const head = await call('/projects?per_page=1', { method: 'HEAD', headers: ALICE });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const name of ['x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'link', 'etag', 'content-type']) {
      expect(head.headers.get(name)).toBe(get.headers.get(name));
    }
  });

  it('mirrors GET errors too, without a body', async () => {
    const res = await call('/projects/acme%2Fnope', { method: 'HEAD' });
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
  });
});

describe('query string length', () => {
  const longQuery = (n: number) => `?search=${'a'.repeat(n - 'search='.length)}`;

  it('up to 10 KiB is served', async () => {
    expect((await call(`/projects${longQuery(10 * 1024)}`)).status).toBe(200);
  });

  it('over 10 KiB is 414', async () => {
    const res = await call(`/projects${longQuery(10 * 1024 + 1)}`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ message: '414 Request-URI Too Large' });
  });

  describe('through the node server', () => {
    let server: Server;
    beforeAll(async () => {
      gitlab = await createEmulator({ fixture });
      server = await gitlab.listen({ port: 0 });
    });
    afterAll(() => server.close());

    it('is 414, never 431, however long the query', async () => {
      for (const n of [10 * 1024 + 1, 64 * 1024, 1024 * 1024]) {
        const res = await fetch(`${server.url}/api/v4/projects${longQuery(n)}`);
        expect(res.status).toBe(414);
        expect(await res.json()).toEqual({ message: '414 Request-URI Too Large' });
      }
    });
  });
});

describe('parameters', () => {
  it('come from the query string when the JSON body is empty', async () => {
    const res = await call('/projects?name=From%20query', json('POST', {}));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'From query', path: 'from-query' });
  });

  it('the body wins over the query string', async () => {
    const res = await call('/projects?name=From%20query&description=kept', json('POST', { name: 'From body' }));
    expect(res.body).toMatchObject({ name: 'From body', description: 'kept' });
  });

  it('a path parameter wins over the body and the query', async () => {
    const res = await call('/projects/acme%2Fwebsite?id=acme%2Farchive', json('PUT', { id: 'acme/archive', description: 'mine' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path_with_namespace: 'acme/website', description: 'mine' });
  });

  it('are read from a form body', async () => {
    const res = await call('/projects', {
      method: 'POST',
      headers: { ...ALICE, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=Form+project&topics[]=a&topics[]=b+c',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Form project', topics: ['a', 'b c'] });
  });

  it('are read from a multipart body, every value a string', async () => {
    const form = new FormData();
    form.append('name', 'Multipart project');
    form.append('visibility', 'public');
    form.append('lfs_enabled', 'false');
    form.append('topics[]', 'x');
    form.append('topics[]', 'y');
    form.append('', ''); // an extra, empty part some clients send
    const res = await call('/projects', { method: 'POST', headers: ALICE, body: form });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Multipart project', visibility: 'public', lfs_enabled: false, topics: ['x', 'y'] });
  });

  it('arrays come as a[]=, as a JSON array, or comma-separated where GitLab allows it', async () => {
    const a = await call('/projects?topics[]=one&topics[]=two', json('POST', { name: 'Arr one' }));
    expect(a.body.topics).toEqual(['one', 'two']);
    const b = await call('/projects', json('POST', { name: 'Arr two', topics: ['three'] }));
    expect(b.body.topics).toEqual(['three']);
    const c = await call('/projects', json('POST', { name: 'Arr three', topics: 'four,five' }));
    expect(c.body.topics).toEqual(['five', 'four']);
  });

  it('hashes come as h[k]=v and are carried in pagination links as Rails writes them', async () => {
    const res = await call('/projects?filter[scope]=all&filter[kind]=x');
    expect(linkOf(res.headers, 'first')).toContain('filter%5Bkind%5D=x&filter%5Bscope%5D=all');
  });

  it('arrays of hashes come as a[][k]=v, a repeated key starting a new hash', async () => {
    const res = await call('/projects?vars[][key]=A&vars[][value]=1&vars[][key]=B&vars[][value]=2');
    expect(linkOf(res.headers, 'first')).toContain('vars%5B%5D%5Bkey%5D=A&vars%5B%5D%5Bvalue%5D=1&vars%5B%5D%5Bkey%5D=B&vars%5B%5D%5Bvalue%5D=2');
  });

  it('a parameter named like an object property is plain data', async () => {
    const res = await call('/projects?toString=1&__proto__[x]=2&constructor=3');
    expect(res.status).toBe(200);
    expect(linkOf(res.headers, 'first')).toContain('__proto__%5Bx%5D=2');
    expect(linkOf(res.headers, 'first')).toContain('toString=1');
  });

  it('a + in a query value is a space; %2B is a plus', async () => {
    const plus = await call('/projects?search=web+site');
    expect(linkOf(plus.headers, 'first')).toContain('search=web+site');
    const encoded = await call('/projects?last_activity_after=2029-12-31T00:00:00%2B01:00');
    expect(encoded.status).toBe(200);
    const raw = await call('/projects?last_activity_after=2029-12-31T00:00:00+01:00');
    expect(raw.status).toBe(400); // the + became a space, and the time no longer parses
    expect(raw.body).toEqual({ error: 'last_activity_after is invalid' });
  });

  it('what Rack cannot read is a plain 400 Bad Request before any route runs', async () => {
    for (const q of ['search=%E0%A4%A', 'search=%zz', 'search=a%00b', 'topic=a&topic[]=b', 'topic[]=a&topic[k]=b']) {
      const res = await call(`/projects?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers.get('content-type')).toBe('text/plain');
      expect(res.text).toBe('Bad Request');
    }
  });
});

describe('Grape booleans', () => {
  it('accept True/False/1/0/yes/no and the other spellings Grape knows', async () => {
    const archived = async (value: string) => {
      const res = await call(`/projects?archived=${value}`, { headers: ALICE });
      expect(res.status, value).toBe(200);
      return res.body.length as number;
    };
    updateProject(gitlab, 'acme/archive', (p) => void (p.archived = true));
    for (const v of ['true', 'True', 'TRUE', '1', 'yes', 'Yes', 't', 'y', 'on']) expect(await archived(v)).toBe(1);
    for (const v of ['false', 'False', 'FALSE', '0', 'no', 'No', 'f', 'n', 'off']) expect(await archived(v)).toBe(1);
    expect(await archived('')).toBe(2); // an empty value is not given
  });

  it('anything else is 400 "<name> is invalid"', async () => {
    for (const v of ['TrUe', '2', 'nope']) {
      const res = await call(`/projects?archived=${v}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'archived is invalid' });
    }
  });

  it('JSON true, false, 1 and 0 are booleans too', async () => {
    const res = await call('/projects', json('POST', { name: 'Json bools', lfs_enabled: 0, packages_enabled: false }));
    expect(res.body).toMatchObject({ lfs_enabled: false, packages_enabled: false });
  });
});

describe('errors', () => {
  it('a missing required parameter is 400 naming it in the message', async () => {
    const res = await call('/groups', json('POST', { path: 'no-name' }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: '400 Bad request - "name" not given' });
  });

  it('a parameter outside its values is 400 in Grape\'s envelope', async () => {
    const res = await call('/projects', json('POST', { name: 'Bad visibility', visibility: 'secret' }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'visibility does not have a valid value' });
  });

  it('a validation failure is 400 with each property and its errors', async () => {
    const res = await call('/projects', json('POST', { name: 'website', path: 'website', namespace_id: groupId() }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
  });

  it('malformed JSON is 400 with Grape\'s message', async () => {
    const res = await call('/projects', { method: 'POST', headers: { ...ALICE, 'Content-Type': 'application/json' }, body: '{"name":' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error:
        "\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying application/json as content-type, you must pass valid application/json in the request's 'body' ",
    });
  });

  it('an empty JSON body is no parameters at all', async () => {
    const res = await call('/projects/acme%2Fwebsite', { method: 'DELETE', headers: { ...ROOT, 'Content-Type': 'application/json' }, body: '' });
    expect(res.status).toBe(202);
  });
});

function groupId(): number {
  return idOf(gitlab, 'acme');
}

describe('conditional requests', () => {
  it('hashes bytes wherever they start in their buffer (a Node Buffer from a pool included)', () => {
    const text = 'an ETag for any bytes\n';
    const pooled = Buffer.concat([Buffer.from('x'), Buffer.from(text)]).subarray(1);
    expect(pooled.byteOffset & 3).not.toBe(0);
    expect(hash53(pooled)).toBe(hash53(text));
  });

  it('an ETag with If-None-Match answers 304 until the resource changes', async () => {
    const first = await call('/projects/acme%2Fwebsite', { headers: ALICE });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await call('/projects/acme%2Fwebsite', { headers: { ...ALICE, 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    await call('/projects/acme%2Fwebsite', json('PUT', { description: 'changed' }));
    const changed = await call('/projects/acme%2Fwebsite', { headers: { ...ALICE, 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('If-Unmodified-Since on DELETE of a project changed since is 412', async () => {
    gitlab.clock.set('2030-02-01T10:00:00.500Z');
    await call('/projects/acme%2Fwebsite', json('PUT', { description: 'changed' }));
    for (const since of ['Fri, 01 Feb 2030 09:59:59 GMT', 'Fri, 01 Feb 2030 10:00:00 GMT']) {
      const res = await call('/projects/acme%2Fwebsite', { method: 'DELETE', headers: { ...ALICE, 'If-Unmodified-Since': since } });
      expect(res.status).toBe(412);
      expect(res.body).toEqual({ message: '412 Precondition Failed' });
    }
    expect((await call('/projects/acme%2Fwebsite')).status).toBe(200);
  });

  it('If-Unmodified-Since after the last change lets the DELETE through', async () => {
    const res = await call('/projects/acme%2Fwebsite', { method: 'DELETE', headers: { ...ALICE, 'If-Unmodified-Since': 'Tue, 01 Jan 2030 12:00:01 GMT' } });
    expect(res.status).toBe(202);
  });
});

describe('headers', () => {
  it('every answer carries the standard headers', async () => {
    for (const res of [await call('/projects'), await call('/nope'), await call('/user')]) {
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('max-age=0, private, must-revalidate');
      expect(res.headers.get('content-type')).toBe('application/json');
    }
  });
});

describe('an unexpected exception', () => {
  // The public surface offers no way to make a handler throw, short of a world that breaks
  // the emulator's own invariants: a project without its topics list.
  function breakWebsite() {
    updateProject(gitlab, 'acme/website', (p) => void delete (p as Partial<typeof p>).topics);
  }

  it('is 500 with GitLab\'s body, journaled with the error, and changes nothing', async () => {
    breakWebsite();
    const before = gitlab.state;
    const res = await call('/projects/acme%2Fwebsite', json('PUT', { description: 'lost' }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: '500 Internal Server Error' });
    expect(gitlab.state).toBe(before);
    const entry = gitlab.journal.last()!;
    expect(entry.status).toBe(500);
    expect(entry.error).toMatch(/TypeError/);
    expect(entry.after.state).toBe(entry.before.state);
  });

  it('a fault forcing a status goes through the same envelope path and changes nothing', async () => {
    gitlab.faults.add({ method: 'POST', path: '/projects', status: 500, body: { message: '500 Internal Server Error' }, times: 1 });
    const before = gitlab.state;
    const res = await call('/projects', json('POST', { name: 'Never made' }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: '500 Internal Server Error' });
    expect(gitlab.state).toBe(before);
    expect((await call('/projects', json('POST', { name: 'Made' }))).status).toBe(201);
  });
});
