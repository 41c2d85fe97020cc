// Avatars of projects and groups: uploaded with PUT as a file named `avatar`, served back at
// GitLab's paths to whoever sees the owner, and removed with an empty `avatar`.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, teamProject } from './support/world.js';

const world = seededWorld({ users: TEAM, groups: [{ ...ACME, members: TEAM_MEMBERS }], projects: [teamProject()] }, '2026-05-04T10:00:00Z');
const call = (path: string, init: { method?: string; token?: string; json?: unknown; body?: BodyInit } = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const GIF = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]);
const upload = (name = 'logo.gif') => {
  const form = new FormData();
  form.append('avatar', new File([GIF], name));
  return form;
};

describe.each([
  ['project', '/projects/acme%2Fapp', 'project', 'maintainer-token'],
  ['group', '/groups/acme', 'group', 'root-token'],
])('a %s avatar', (_kind, base, model, manager) => {
  it('is null at first, uploaded, shown by GET, served to members only, and removed', async () => {
    expect((await (await call(base)).json()).avatar_url).toBeNull();
    const res = await call(base, { method: 'PUT', token: manager, body: upload() });
    expect(res.status).toBe(200);
    const id = (await (await call(base)).json()).id;
    const url = `https://gitlab.example.com/uploads/-/system/${model}/avatar/${id}/logo.gif`;
    expect((await res.json()).avatar_url).toBe(url);
    expect((await (await call(base)).json()).avatar_url).toBe(url);
    const served = await world().handle(new Request(url, { headers: { 'PRIVATE-TOKEN': 'root-token' } }));
    expect([served.status, served.headers.get('content-type'), new Uint8Array(await served.arrayBuffer())]).toEqual([200, 'image/gif', GIF]);
    expect((await (await call(base, { method: 'PUT', token: manager, json: { avatar: '' } })).json()).avatar_url).toBeNull();
    expect((await (await call(base)).json()).avatar_url).toBeNull();
    expect((await world().handle(new Request(url, { headers: { 'PRIVATE-TOKEN': 'root-token' } }))).status).toBe(404);
  });

  it('refuses a file that is no image it takes, and changes nothing', async () => {
    const res = await call(base, { method: 'PUT', token: manager, body: upload('notes.txt') });
    expect([res.status, await res.json()]).toEqual([400, { message: { avatar: ['file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp'] } }]);
    expect((await (await call(base)).json()).avatar_url).toBeNull();
  });
});

describe('a private project\'s avatar', () => {
  it('is not served to those who cannot see the project', async () => {
    const res = await call('/projects/acme%2Fapp', { method: 'PUT', body: upload() });
    const url = (await res.json()).avatar_url;
    expect((await world().handle(new Request(url))).status).toBe(404);
    expect((await world().handle(new Request(url, { headers: { 'PRIVATE-TOKEN': 'outsider-token' } }))).status).toBe(404);
    expect((await world().handle(new Request(url, { headers: { 'PRIVATE-TOKEN': 'guest-token' } }))).status).toBe(200);
  });
});
