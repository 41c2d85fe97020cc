// Broadcast messages (lib/api/broadcast_messages.rb): anyone reads them, newest first;
// administrators create, change and delete them, with the model's defaults and validations. The
// family is a folder and one line of the list: nothing else of the emulator names it.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TEAM, apiCall, seededWorld } from './support/world.js';

const NOW = '2026-05-04T10:00:00Z';
const world = seededWorld({ users: TEAM }, NOW);

const post = (json: unknown, token = 'root-token') => apiCall(world(), '/broadcast_messages', { method: 'POST', token, json });

describe('broadcast messages', () => {
  it('an administrator creates one with the defaults: now to an hour later, a banner, GitLab\'s colours', async () => {
    const res = await post({ message: 'Maintenance tonight' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      id: 1, message: 'Maintenance tonight', starts_at: '2026-05-04T10:00:00.000Z', ends_at: '2026-05-04T11:00:00.000Z', color: '#E75E40', font: '#FFFFFF',
      target_access_levels: [], target_path: null, broadcast_type: 'banner', theme: 'indigo', dismissable: null, active: true,
    });
  });

  it('lists newest first, to anyone, and reads one; active follows the clock', async () => {
    await post({ message: 'one', starts_at: '2026-05-05T00:00:00Z', ends_at: '2026-05-06T00:00:00Z' });
    await post({ message: 'two', target_access_levels: '30,40', broadcast_type: 'notification', dismissable: true });
    const list = await (await apiCall(world(), '/broadcast_messages')).json();
    expect(list.map((m: any) => [m.message, m.active])).toEqual([['two', true], ['one', false]]);
    expect(list[0]).toMatchObject({ target_access_levels: [30, 40], broadcast_type: 'notification', dismissable: true });
    world().clock.set('2026-05-05T12:00:00Z');
    expect(await (await apiCall(world(), '/broadcast_messages/1')).json()).toMatchObject({ message: 'one', active: true });
  });

  it('an administrator changes and deletes one; an unknown one is 404 Not found', async () => {
    await post({ message: 'old' });
    const res = await apiCall(world(), '/broadcast_messages/1', { method: 'PUT', token: 'root-token', json: { message: 'new', theme: 'red' } });
    expect(await res.json()).toMatchObject({ id: 1, message: 'new', theme: 'red', color: '#E75E40' });
    expect((await apiCall(world(), '/broadcast_messages/1', { method: 'DELETE', token: 'root-token' })).status).toBe(204);
    const gone = await apiCall(world(), '/broadcast_messages/1');
    expect([gone.status, await gone.json()]).toEqual([404, { message: '404 Not found' }]);
  });

  it('refuses others, bad values and a bad colour, and changes nothing', async () => {
    expect((await post({ message: 'x' }, 'dev-token')).status).toBe(403);
    expect((await apiCall(world(), '/broadcast_messages', { method: 'POST', json: { message: 'x' } })).status).toBe(401);
    let res = await post({});
    expect([res.status, await res.json()]).toEqual([400, { message: '400 Bad request - "message" not given' }]);
    res = await post({ message: 'x', target_access_levels: [15] });
    expect([res.status, await res.json()]).toEqual([400, { error: 'target_access_levels does not have a valid value' }]);
    res = await post({ message: 'x', color: 'red' });
    expect([res.status, await res.json()]).toEqual([400, { message: { color: ['must be a valid color code'] } }]);
    expect(await (await apiCall(world(), '/broadcast_messages')).json()).toEqual([]);
  });

  it('is a folder and one line of the list: nothing outside its folder names it', () => {
    const root = new URL('..', import.meta.url).pathname;
    const files = execFileSync('git', ['grep', '-l', 'broadcast-messages/', '--', 'src'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    expect(files).toEqual(['src/families/index.ts']);
    expect(readFileSync(`${root}src/families/index.ts`, 'utf8').match(/broadcast/gi)).toHaveLength(3);
  });
});
