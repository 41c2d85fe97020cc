// A write's hook deliveries are queued after its answer: a world snapshot taken between the two
// holds the event still to be delivered, and restoring it queues its deliveries again, as
// restoring any world replays what it holds.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { ACME, ORIGIN, TEAM, teamProject } from './support/world.js';

const RECEIVER = 'https://restore.example.com/hook';
const msw = setupServer();
let emulator: Emulator;
const titles: string[] = [];

beforeAll(async () => {
  emulator = await createEmulator({ clock: { now: '2026-05-04T10:00:00Z', frozen: true }, fixture: { users: TEAM, groups: [ACME], projects: [teamProject()] } });
  msw.listen({ onUnhandledRequest: 'bypass' });
  msw.use(http.post(RECEIVER, async ({ request }) => (titles.push(((await request.json()) as any).object_attributes.title), HttpResponse.json({}))));
});
afterAll(() => msw.close());

const write = (path: string, body: unknown) =>
  emulator.handle(new Request(`${ORIGIN}/api/v4${path}`, { method: 'POST', headers: { 'PRIVATE-TOKEN': 'maintainer-token', 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));

it('a snapshot between an answer and its deliveries, restored, delivers them again; later writes deliver once', async () => {
  expect((await write('/projects/acme%2Fapp/hooks', { url: RECEIVER, issues_events: true })).status).toBe(201);
  expect((await write('/projects/acme%2Fapp/issues', { title: 'first' })).status).toBe(201);
  const between = emulator.snapshot();
  expect((await write('/projects/acme%2Fapp/milestones', { title: 'v1' })).status).toBe(201); // an event no hook takes
  await emulator.hooks.settled();
  expect(titles).toEqual(['first']);
  expect(emulator.hooks.deliveries().map((d) => [d.trigger, d.state])).toEqual([['issue_hooks', 'sent']]);

  emulator.restore(between);
  expect(emulator.hooks.deliveries().map((d) => [d.trigger, d.state])).toEqual([['issue_hooks', 'pending']]);
  await emulator.hooks.settled();
  expect(titles).toEqual(['first', 'first']);
  expect((await write('/projects/acme%2Fapp/issues', { title: 'second' })).status).toBe(201);
  await emulator.hooks.settled();
  expect(titles).toEqual(['first', 'first', 'second']);
  expect(emulator.hooks.deliveries().map((d) => d.state)).toEqual(['sent', 'sent']);
});
