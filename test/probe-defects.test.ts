// What a hostile probe found, each reproduced through `emulator.handle`: numbers beyond a
// date's range, nulls where GitLab expects a value, durations no column holds, and long
// adversarial text (answered correctly; how fast is bench/probe-scans.ts's to say).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, seededWorld } from './support/world.js';

const fixture: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token', scopes: ['api', 'sudo'] }] },
    { username: 'dev', tokens: [{ token: 'dev-token' }] },
    { username: 'out', tokens: [{ token: 'out-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'developer' }] }],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root',
    repository: { files: { 'a.txt': 'a\n' }, branches: { fix: 'main', long: 'main', url: 'main' } },
    issues: [{ title: 'One' }],
    merge_requests: [{ title: 'MR', source_branch: 'fix' }],
  }],
};

const world = seededWorld(fixture, '2030-01-01T00:00:00Z');
const P = '/projects/acme%2Fapp';
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl probe@example.com';

async function call(method: string, path: string, json?: unknown, token = 'root-token') {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

/** The request fails with `status`, and the world is as it was. */
async function refused(status: number, method: string, path: string, json: unknown) {
  const before = world().state;
  const res = await call(method, path, json);
  expect(res.status, `${method} ${path} ${String(JSON.stringify(json)).slice(0, 80)}`).toBe(status);
  expect(world().state).toBe(before);
  return res.body;
}

describe('numbers beyond a date’s range', () => {
  it('are a 400 on an issue’s created_at, a member’s and an SSH key’s expires_at', async () => {
    for (const n of [9007199254740992, 1e308, -1e308, 8.64e15 + 1]) {
      expect(await refused(400, 'POST', `${P}/issues`, { title: 'x', created_at: n })).toEqual({ error: 'created_at is invalid' });
      expect(await refused(400, 'POST', `${P}/members`, { user_id: 3, access_level: 30, expires_at: n })).toEqual({ error: 'expires_at is invalid' });
      expect(await refused(400, 'POST', '/user/keys', { title: 'k', key: KEY, expires_at: n })).toEqual({ error: 'expires_at is invalid' });
      expect(await refused(400, 'GET', `${P}/issues?created_after=${n}`, undefined)).toMatchObject({ error: expect.stringMatching(/created_after is invalid/) });
    }
  });

  it('a date within the range is still read', async () => {
    expect((await call('POST', `${P}/issues`, { title: 'x', created_at: '2029-06-01T00:00:00Z' })).body.created_at).toBe('2029-06-01T00:00:00.000Z');
  });
});

describe('nulls where a value is expected', () => {
  it('a member added with a null user_id or username is the missing user_id, as the spec words it', async () => {
    const missing = { message: '400 Bad request - "user_id" not given' };
    expect(await refused(400, 'POST', `${P}/members`, { user_id: null, access_level: 30 })).toEqual(missing);
    expect(await refused(400, 'POST', '/groups/acme/members', { username: null, access_level: 30 })).toEqual(missing);
    expect(await refused(400, 'POST', '/groups/acme/members', { user_id: null, username: null, access_level: 30 })).toEqual(missing);
  });

  it('a snippet with null content is refused as one with no content', async () => {
    expect(await refused(400, 'POST', '/snippets', { title: 't', file_name: 'a', content: null })).toEqual({
      error: 'files, content are missing, exactly one parameter must be provided',
    });
    expect(await refused(400, 'POST', `${P}/snippets`, { title: 't', file_name: 'a', content: null, visibility: 'private' })).toMatchObject({ error: expect.any(String) });
  });
});

describe('durations no column holds', () => {
  const huge = `${'9'.repeat(400)}w`;
  const estimateError = { message: '400 Bad request - Time estimate must have a valid format and be greater than or equal to zero.' };

  it('an overflowing time estimate is refused, on issues and merge requests', async () => {
    expect(await refused(400, 'POST', `${P}/issues/1/time_estimate`, { duration: huge })).toEqual(estimateError);
    expect(await refused(400, 'POST', `${P}/merge_requests/1/time_estimate`, { duration: huge })).toEqual(estimateError);
    expect(await refused(400, 'POST', `${P}/issues/1/time_estimate`, { duration: '2147483648s' })).toEqual(estimateError);
    expect((await call('POST', `${P}/issues/1/time_estimate`, { duration: '2147483647s' })).status).toBe(200);
  });

  it('overflowing spent time is refused', async () => {
    expect((await refused(400, 'POST', `${P}/issues/1/add_spent_time`, { duration: huge }))).toEqual({ message: { time_spent: ["can't be blank"] } });
  });

  it('`/estimate` with an overflowing duration changes nothing, and nothing renders Infinity', async () => {
    const note = await call('POST', `${P}/issues/1/notes`, { body: `/estimate ${huge}` });
    expect(JSON.stringify(note.body)).not.toMatch(/Infinity/);
    const stats = await call('GET', `${P}/issues/1/time_stats`);
    expect(stats.body).toEqual({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
  });
});

describe('long adversarial text', () => {
  const related = async (iid: number) => (await call('GET', `${P}/issues/${iid}/related_merge_requests`)).body.map((m: { iid: number }) => m.iid);

  it('a reference after 64k path segments is still found, and a run no reference ends is none', async () => {
    const res = await call('POST', `${P}/merge_requests`, { title: 'm', source_branch: 'long', target_branch: 'main', description: `${'a'.repeat(65536)} ${'a/'.repeat(65536)} Closes #1` });
    expect(res.status).toBe(201);
    expect(await related(1)).toContain(res.body.iid);
    const issue = await call('POST', `${P}/issues`, { title: 'q', description: `${'x/'.repeat(65536)}#1 ${'_'.repeat(65536)}` });
    expect(issue.status).toBe(201);
    const notes = (await call('GET', `${P}/issues/1/notes`)).body.map((n: { body: string }) => n.body);
    expect(notes).toContain(`mentioned in merge request !${res.body.iid}`);
  });

  it('an issue URL after a long run of URL-like text is read as GitLab reads it', async () => {
    const text = `${'http://x/-/issues/'.repeat(3000)} ${'https://'.repeat(3000)} Fixes https://gitlab.example.com/acme/app/-/issues/1`;
    const res = await call('POST', `${P}/merge_requests`, { title: 'm', source_branch: 'url', target_branch: 'main', description: text });
    expect(res.status).toBe(201);
    expect(await related(1)).toContain(res.body.iid);
    const bad = await call('POST', `${P}/merge_requests/${res.body.iid}/notes`, { body: 'see http://[/-/issues/1 and http://a b/-/issues/1' });
    expect(bad.status).toBe(201);
  });

  it('a commit message of 64k blanks before its text keeps its text', async () => {
    const message = `${' '.repeat(65536)}x\n\n${'\n'.repeat(65536)}Signed-off-by: A <a@example.com>`;
    const res = await call('POST', `${P}/repository/commits`, { branch: 'main', commit_message: message, actions: [{ action: 'create', file_path: 'n.txt', content: 'x' }] });
    expect(res.status).toBe(201);
    expect(res.body.title).toMatch(/^ +x$/);
    expect(res.body.trailers).toEqual({ 'Signed-off-by': 'A <a@example.com>' });
  });

  it('a wiki page whose front matter holds 64k newlines keeps its content', async () => {
    const res = await call('POST', `${P}/wikis`, { title: 'w', content: `---\ntitle: |\n  a${'\n'.repeat(65536)}b\n---\nbody` });
    expect(res.status).toBe(201);
    expect(res.body.content).toContain('body');
  });
});

describe('rotated tokens', () => {
  it('expire a week after rotation by default, and stop working on the clock', async () => {
    const made = await call('POST', '/users/2/personal_access_tokens', { name: 'ci', scopes: ['api'] });
    expect(made.body.expires_at).toBe('2031-01-01'); // require_personal_access_token_expiry: 365 days
    const rotated = await apiCall(world(), '/personal_access_tokens/self/rotate', { method: 'POST', token: made.body.token });
    const fresh = await rotated.json();
    expect([rotated.status, fresh.expires_at]).toEqual([200, '2030-01-08']);
    expect((await apiCall(world(), '/user', { token: fresh.token })).status).toBe(200);
    world().clock.advance('8d');
    expect((await apiCall(world(), '/user', { token: fresh.token })).status).toBe(401);
  });

  it('an impersonation token rotates itself into an impersonation token, as GitLab’s request spec has it', async () => {
    const made = await call('POST', '/users/2/impersonation_tokens', { name: 'support', scopes: ['api'] });
    const rotated = await apiCall(world(), '/personal_access_tokens/self/rotate', { method: 'POST', token: made.body.token });
    const fresh = await rotated.json();
    expect([rotated.status, fresh.expires_at]).toEqual([200, '2030-01-08']);
    expect((await apiCall(world(), '/user', { token: made.body.token })).status).toBe(401);
    const listed = (await call('GET', '/users/2/impersonation_tokens?state=active')).body;
    expect(listed.map((t: { id: number; impersonation: boolean }) => [t.id, t.impersonation])).toEqual([[fresh.id, true]]);
  });
});

describe('hidden variables', () => {
  it('take a PUT without value (no client can read theirs back), while others still need one', async () => {
    const made = await call('POST', `${P}/variables`, { key: 'SECRET', value: 'secret_value', masked_and_hidden: true });
    expect(made.status).toBe(201);
    const res = await call('PUT', `${P}/variables/SECRET`, { description: 'new_description' });
    expect(res).toMatchObject({ status: 200, body: { key: 'SECRET', value: null, description: 'new_description', hidden: true } });
    await call('POST', `${P}/variables`, { key: 'PLAIN', value: 'v' });
    expect(await refused(400, 'PUT', `${P}/variables/PLAIN`, { description: 'd' })).toEqual({ message: '400 Bad request - "value" not given' });
    await call('POST', '/groups/acme/variables', { key: 'G', value: 'secret_value', masked_and_hidden: true });
    expect((await call('PUT', '/groups/acme/variables/G', { description: 'd' })).status).toBe(200);
  });
});

describe('what the spec states and the emulator had from GitLab’s code', () => {
  it('an issue’s discussion_locked is a boolean', async () => {
    expect((await call('GET', `${P}/issues/1`)).body.discussion_locked).toBe(false);
    expect((await call('PUT', `${P}/issues/1`, { discussion_locked: true })).body.discussion_locked).toBe(true);
  });

  it('internal overrides confidential on note create, an explicit internal: false too', async () => {
    expect((await call('POST', `${P}/issues/1/notes`, { body: 'a', confidential: true, internal: false })).body.internal).toBe(false);
    expect((await call('POST', `${P}/issues/1/notes`, { body: 'b', confidential: true })).body.internal).toBe(true);
    expect((await call('POST', `${P}/issues/1/notes`, { body: 'c', confidential: false, internal: true })).body.internal).toBe(true);
  });
});

describe('a group wiki’s list', () => {
  it('is paged, with the pagination headers, as the spec pages every list', async () => {
    const e = world();
    e.configure({ tier: 'premium' });
    for (const title of ['A', 'B', 'C']) expect((await call('POST', '/groups/acme/wikis', { title, content: 'x' })).status).toBe(201);
    const res = await apiCall(e, '/groups/acme/wikis?per_page=2', { token: 'root-token' });
    expect([res.headers.get('x-total'), res.headers.get('x-total-pages'), res.headers.get('x-next-page')]).toEqual(['3', '2', '2']);
    expect((await res.json()).map((p: { title: string }) => p.title)).toHaveLength(2);
  });
});

describe('a user created without a way to sign in', () => {
  it('reset_password and force_random_password both false and no password is 400 can’t be blank', async () => {
    const base = { email: 'n@example.com', username: 'newbie', name: 'New' };
    expect(await refused(400, 'POST', '/users', { ...base, reset_password: false, force_random_password: false })).toEqual({ message: { password: ["can't be blank"] } });
    expect((await call('POST', '/users', { ...base, reset_password: false, force_random_password: true })).status).toBe(201);
  });
});

describe('archiving a project', () => {
  it('POST /projects/:id/archive and /unarchive: owners only, 201 with the project; an archived one takes no pushes', async () => {
    const archived = await call('POST', `${P}/archive`);
    expect(archived).toMatchObject({ status: 201, body: { archived: true } });
    const commit = { branch: 'main', commit_message: 'c', actions: [{ action: 'create', file_path: 'z.txt', content: 'z' }] };
    expect((await call('POST', `${P}/repository/commits`, commit)).status).toBe(403);
    expect((await call('GET', '/projects?archived=true')).body.map((p: { path: string }) => p.path)).toEqual(['app']);
    expect((await call('POST', `${P}/unarchive`)).body.archived).toBe(false);
    expect((await call('POST', `${P}/repository/commits`, commit)).status).toBe(201);
    const before = world().state;
    expect((await apiCall(world(), `${P}/archive`, { method: 'POST', token: 'dev-token' })).status).toBe(403);
    expect((await apiCall(world(), `${P}/archive`, { method: 'POST', token: 'out-token' })).status).toBe(404);
    expect(world().state).toBe(before);
  });
});

describe('iteration filters', () => {
  it('iteration_id and iteration_title are mutually exclusive above the free tier, in not[...] too', async () => {
    const e = world();
    expect((await call('GET', `${P}/issues?iteration_id=1&iteration_title=S`)).status).toBe(200);
    e.configure({ tier: 'premium' });
    expect(await call('GET', `${P}/issues?iteration_id=1&iteration_title=S`)).toEqual({ status: 400, body: { error: 'iteration_id, iteration_title are mutually exclusive' } });
    expect(await call('GET', `${P}/issues?not[iteration_id]=1&not[iteration_title]=S`)).toEqual({ status: 400, body: { error: 'not[iteration_id], not[iteration_title] are mutually exclusive' } });
    expect((await call('GET', `${P}/issues?iteration_id=1&not[iteration_title]=S`)).status).toBe(200);
    expect((await call('GET', '/issues?iteration_id=1&iteration_title=S')).status).toBe(400);
  });
});

describe('unassign_issuables on member removal', () => {
  it('takes the user off the issues and merge requests of the source’s projects, and only when asked', async () => {
    await call('PUT', `${P}/issues/1`, { assignee_ids: [2] });
    await call('PUT', `${P}/merge_requests/1`, { assignee_ids: [2] });
    const assignees = async () => [
      (await call('GET', `${P}/issues/1`)).body.assignees.map((u: { username: string }) => u.username),
      (await call('GET', `${P}/merge_requests/1`)).body.assignees.map((u: { username: string }) => u.username),
    ];
    expect(await assignees()).toEqual([['dev'], ['dev']]);
    const snap = world().snapshot();
    expect((await call('DELETE', '/groups/acme/members/2')).status).toBe(204);
    expect(await assignees()).toEqual([['dev'], ['dev']]);
    world().restore(snap);
    expect((await call('DELETE', '/groups/acme/members/2?unassign_issuables=true')).status).toBe(204);
    expect(await assignees()).toEqual([[], []]);
    expect((await call('GET', `${P}/issues?assignee_id=2`)).body).toEqual([]);
  });
});
