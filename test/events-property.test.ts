// A property of the event stream: any sequence of API calls (commits, branches, tags, milestones,
// members, some of them bound to fail) yields, through GET /projects/:id/events, the events a
// plain model predicts, in order; a request that fails yields none. Ids only grow.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Snapshot } from '../src/index.js';

const NOW = '2026-03-01T12:00:00Z';
const USERS = ['ann', 'bob'] as const;
const TOKENS = { ann: 'ann-token', bob: 'bob-token' } as const;
const OUTSIDER = 'cid';

type Who = (typeof USERS)[number];
type Op =
  | { kind: 'commit'; who: Who; branch: 'main' | 'topic'; clash: boolean }
  | { kind: 'branch'; who: Who; create: boolean }
  | { kind: 'tag'; who: Who; name: 't1' | 't2' }
  | { kind: 'milestone'; who: Who; title: 'm1' | 'm2' }
  | { kind: 'close'; who: Who; title: 'm1' | 'm2'; close: boolean }
  | { kind: 'member'; add: boolean }
  | { kind: 'tick'; days: number };

const who = fc.constantFrom(...USERS);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('commit' as const), who, branch: fc.constantFrom('main' as const, 'topic' as const), clash: fc.boolean() }),
  fc.record({ kind: fc.constant('branch' as const), who, create: fc.boolean() }),
  fc.record({ kind: fc.constant('tag' as const), who, name: fc.constantFrom('t1' as const, 't2' as const) }),
  fc.record({ kind: fc.constant('milestone' as const), who, title: fc.constantFrom('m1' as const, 'm2' as const) }),
  fc.record({ kind: fc.constant('close' as const), who, title: fc.constantFrom('m1' as const, 'm2' as const), close: fc.boolean() }),
  fc.record({ kind: fc.constant('member' as const), add: fc.boolean() }),
  // The clock moves on by whole days (or, rarely, back): the days of `before` and `after`.
  fc.record({ kind: fc.constant('tick' as const), days: fc.integer({ min: -1, max: 2 }) }),
);

/** What the model expects GET /projects/:id/events to list for one event. */
interface Expected {
  action_name: string;
  author_username: string;
  target_type: string | null;
  ref?: string;
  commit_count?: number;
  /** The UTC day it happened on (not listed; what the date filters read). */
  day: number;
}

/** The model: branches, tags, milestones and the outsider's membership; each op either fails or adds its events. */
class Model {
  branches = new Set(['main']);
  tags = new Set<string>();
  milestones = new Map<string, 'active' | 'closed'>();
  member = false;
  day = 0;
  events: Expected[] = [];

  #push(e: Omit<Expected, 'day'>): void {
    this.events.push({ ...e, day: this.day });
  }

  apply(o: Op): boolean {
    switch (o.kind) {
      case 'tick':
        this.day += o.days;
        return true;
      case 'commit':
        if (o.clash || !this.branches.has(o.branch)) return false;
        this.#push({ action_name: 'pushed to', author_username: o.who, target_type: null, ref: o.branch, commit_count: 1 });
        return true;
      case 'branch':
        if (o.create === this.branches.has('topic')) return false;
        if (o.create) this.branches.add('topic');
        else this.branches.delete('topic');
        this.#push({ action_name: o.create ? 'pushed new' : 'deleted', author_username: o.who, target_type: null, ref: 'topic', commit_count: 0 });
        return true;
      case 'tag':
        if (this.tags.has(o.name)) return false;
        this.tags.add(o.name);
        this.#push({ action_name: 'pushed new', author_username: o.who, target_type: null, ref: o.name, commit_count: 1 });
        return true;
      case 'milestone':
        if (this.milestones.has(o.title)) return false;
        this.milestones.set(o.title, 'active');
        this.#push({ action_name: 'opened', author_username: o.who, target_type: 'Milestone' });
        return true;
      case 'close': {
        const state = this.milestones.get(o.title);
        if (state === undefined) return false;
        const next = o.close ? 'closed' : 'active';
        // An update that changes no state records none.
        if (state !== next) this.#push({ action_name: o.close ? 'closed' : 'opened', author_username: o.who, target_type: 'Milestone' });
        this.milestones.set(o.title, next);
        return true;
      }
      case 'member':
        if (o.add === this.member) return false;
        this.member = o.add;
        this.#push({ action_name: o.add ? 'joined' : 'left', author_username: OUTSIDER, target_type: null });
        return true;
    }
  }
}

let emulator: Emulator;
let seeded: Snapshot;
let outsiderId: number;
const milestoneIds = new Map<string, number>();

beforeAll(async () => {
  emulator = await createEmulator({
    clock: { now: NOW, frozen: true },
    fixture: {
      users: [
        { username: 'ann', tokens: [{ token: TOKENS.ann }] },
        { username: 'bob', tokens: [{ token: TOKENS.bob }] },
        { username: OUTSIDER },
      ],
      projects: [
        {
          namespace: 'ann', path: 'p', visibility: 'public',
          members: [{ user: 'bob', access_level: 'maintainer' }],
          repository: { files: { 'README.md': 'hi\n' } },
        },
      ],
    },
  });
  seeded = emulator.snapshot();
  outsiderId = (await (await api('GET', `/users?username=${OUTSIDER}`, 'ann')).json())[0].id;
});

function api(method: string, path: string, as: Who, json?: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'PRIVATE-TOKEN': TOKENS[as] };
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  return emulator.handle(new Request(`https://gitlab.example.com/api/v4${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) }));
}

/** A request about the project `ann/p`. */
const call = (method: string, path: string, as: Who, json?: unknown) => api(method, `/projects/ann%2Fp${path}`, as, json);

let counter = 0;
async function run(o: Op): Promise<boolean> {
  let res: Response;
  switch (o.kind) {
    case 'tick':
      emulator.clock.set(emulator.clock.now() + o.days * 86_400_000);
      return true;
    case 'commit':
      res = await call('POST', '/repository/commits', o.who, {
        branch: o.branch,
        commit_message: `c${++counter}`,
        actions: [{ action: o.clash ? 'update' : 'create', file_path: o.clash ? 'absent.txt' : `f${counter}.txt`, content: 'x' }],
      });
      break;
    case 'branch':
      res = o.create ? await call('POST', '/repository/branches?branch=topic&ref=main', o.who) : await call('DELETE', '/repository/branches/topic', o.who);
      break;
    case 'tag':
      res = await call('POST', `/repository/tags?tag_name=${o.name}&ref=main`, o.who);
      break;
    case 'milestone': {
      res = await call('POST', '/milestones', o.who, { title: o.title });
      if (res.status === 201) milestoneIds.set(o.title, (await res.clone().json()).id);
      break;
    }
    case 'close': {
      const id = milestoneIds.get(o.title);
      res = await call('PUT', `/milestones/${id ?? 999999}`, o.who, { state_event: o.close ? 'close' : 'activate' });
      break;
    }
    case 'member':
      res = o.add ? await call('POST', '/members', 'ann', { user_id: outsiderId, access_level: 30 }) : await call('DELETE', `/members/${outsiderId}`, 'ann');
      break;
  }
  return res.status < 400;
}

describe('the event stream', () => {
  it('yields the events a plain model predicts, in order, and none for a failed request', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 14 }), async (ops) => {
        emulator.restore(seeded);
        emulator.clock.set(NOW);
        milestoneIds.clear();
        const model = new Model();
        for (const o of ops) expect(await run(o), JSON.stringify(o)).toBe(model.apply(o));
        const res = await call('GET', '/events?sort=asc&per_page=100', 'ann');
        const listed = (await res.json()) as any[];
        expect(listed.map((e) => ({
          action_name: e.action_name,
          author_username: e.author_username,
          target_type: e.target_type,
          ...(e.push_data ? { ref: e.push_data.ref, commit_count: e.push_data.commit_count } : {}),
        }))).toEqual(model.events.map(({ day: _day, ...e }) => e));
        const ids = listed.map((e) => e.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        expect(new Set(ids).size).toBe(ids.length);
        // Whole days between `after` and `before` (each excluded), newest first, a page at a time, X-Total counting them.
        const day = (d: number) => new Date(Date.parse(NOW) + d * 86_400_000).toISOString().slice(0, 10);
        for (const [after, before] of [[-1, 1], [0, 3], [1, undefined], [undefined, 1]] as const) {
          const query = `${after !== undefined ? `&after=${day(after)}` : ''}${before !== undefined ? `&before=${day(before)}` : ''}`;
          const want = model.events.filter((e) => (after === undefined || e.day > after) && (before === undefined || e.day < before)).reverse();
          const first = await call('GET', `/events?per_page=3${query}`, 'ann');
          expect(first.headers.get('x-total'), query).toBe(String(want.length));
          const second = (await (await call('GET', `/events?per_page=3&page=2${query}`, 'ann')).json()) as any[];
          expect(second.map((e) => e.action_name), query).toEqual(want.slice(3, 6).map((e) => e.action_name));
        }
      }),
      { numRuns: 40 },
    );
  });
});
