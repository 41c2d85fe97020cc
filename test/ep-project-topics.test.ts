// Topics (lib/api/topics.rb) and their avatars: administrators create, change, merge and delete
// topics; anyone lists them, most used first; a topic given to a project becomes a topic.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, apiCall, seededWorld } from './support/world.js';

const world = seededWorld(
  {
    users: TEAM,
    groups: [ACME],
    projects: [
      { namespace: 'acme', path: 'app', visibility: 'public', creator: 'root', topics: ['ruby', 'web'] },
      { namespace: 'acme', path: 'lib', visibility: 'public', creator: 'root', topics: ['Ruby'] },
    ],
  },
  '2026-05-04T10:00:00Z',
);
const call = (path: string, init: { method?: string; token?: string; json?: unknown; body?: BodyInit } = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

describe('topics', () => {
  it('the fixture\'s project topics are topics, most used first, counted', async () => {
    const list = await (await apiCall(world(), '/topics')).json();
    expect(list.map((t: any) => [t.name, t.title, t.total_projects_count])).toEqual([['ruby', 'ruby', 2], ['web', 'web', 1]]);
    expect(list[0]).toEqual({ id: 1, name: 'ruby', title: 'ruby', description: null, total_projects_count: 2, organization_id: 1, avatar_url: null });
  });

  it('an administrator creates, changes and deletes one; a project given a new topic makes it', async () => {
    const res = await call('/topics', { method: 'POST', json: { name: 'my-topic', title: 'My Topic', description: 'about' } });
    expect(await body(res)).toEqual([201, { id: 3, name: 'my-topic', title: 'My Topic', description: 'about', total_projects_count: 0, organization_id: 1, avatar_url: null }]);
    expect((await (await call('/topics/3', { method: 'PUT', json: { description: 'changed' } })).json()).description).toBe('changed');
    expect((await (await call('/topics?without_projects=true')).json()).map((t: any) => t.name)).toEqual(['my-topic']);
    await call('/projects/acme%2Fapp', { method: 'PUT', json: { topics: ['ruby', 'web', 'my-topic', 'brand-new'] } });
    const names = (await (await call('/topics')).json()).map((t: any) => [t.name, t.total_projects_count]);
    expect(names).toEqual([['ruby', 2], ['web', 1], ['my-topic', 1], ['brand-new', 1]]);
    expect((await (await call('/topics?search=NEW')).json()).map((t: any) => t.name)).toEqual(['brand-new']);
    expect((await call('/topics/3', { method: 'DELETE' })).status).toBe(204);
    expect((await (await call('/projects/acme%2Fapp')).json()).topics).toEqual(['brand-new', 'ruby', 'web']);
    expect(await body(await call('/topics/3'))).toEqual([404, { message: '404 Not found' }]);
  });

  it('merges one topic into another: its projects move over', async () => {
    const res = await call('/topics/merge', { method: 'POST', json: { source_topic_id: 2, target_topic_id: 1 } });
    expect(await body(res)).toEqual([201, expect.objectContaining({ id: 1, name: 'ruby', total_projects_count: 2 })]);
    expect((await (await call('/projects/acme%2Fapp')).json()).topics).toEqual(['ruby']);
    expect(await body(await call('/topics/merge', { method: 'POST', json: { source_topic_id: 1, target_topic_id: 1 } }))).toEqual([400, { message: 'The source topic and the target topic are identical.' }]);
    expect((await call('/topics/merge', { method: 'POST', json: { source_topic_id: 2, target_topic_id: 1 } })).status).toBe(404);
  });

  it('refuses a taken name (whatever its case), blanks, and anyone but an administrator', async () => {
    expect(await body(await call('/topics', { method: 'POST', json: { name: 'RUBY', title: ' ' } }))).toEqual([400, { message: { name: ['has already been taken'], title: ["can't be blank"] } }]);
    expect((await call('/topics', { method: 'POST', token: 'maintainer-token', json: { name: 'x', title: 'x' } })).status).toBe(403);
    expect((await call('/topics/1', { method: 'DELETE', token: 'maintainer-token' })).status).toBe(403);
  });
});

describe('topic avatars', () => {
  it('are uploaded, served back and removed', async () => {
    const form = new FormData();
    form.append('avatar', new File([PNG], 'avatar.png', { type: 'image/png' }));
    const res = await call('/topics/1', { method: 'PUT', body: form });
    const url = (await res.json()).avatar_url;
    expect(url).toBe('https://gitlab.example.com/uploads/-/system/projects/topic/avatar/1/avatar.png');
    const served = await world().handle(new Request(url));
    expect([served.status, served.headers.get('content-type'), new Uint8Array(await served.arrayBuffer())]).toEqual([200, 'image/png', PNG]);
    expect((await (await call('/topics/1', { method: 'PUT', json: { avatar: '' } })).json()).avatar_url).toBeNull();
    expect((await world().handle(new Request(url))).status).toBe(404);
  });

  it('refuses another format or a file too big, and a failed create makes nothing', async () => {
    const form = new FormData();
    form.append('name', 'new');
    form.append('title', 'New');
    form.append('avatar', new File(['x'], 'avatar.txt'));
    expect(await body(await call('/topics', { method: 'POST', body: form })))
      .toEqual([400, { message: { avatar: ['file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp'] } }]);
    const big = new FormData();
    big.append('avatar', new File([new Uint8Array(200 * 1024 + 1)], 'big.png'));
    expect(await body(await call('/topics/1', { method: 'PUT', body: big }))).toEqual([400, { message: { avatar: ['is too big (should be at most 200 KiB)'] } }]);
    expect((await (await call('/topics')).json()).map((t: any) => t.name)).toEqual(['ruby', 'web']);
  });
});
