// The three issue lists against a plain model written from GitLab's finder rules (the
// reference's section 1.2 and 1.3): random worlds, random filters, every kind of caller; and
// paging through any answer returns every match exactly once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { apiCall } from './support/world.js';

const NOW = Date.parse('2024-03-06T12:00:00.000Z'); // a Wednesday
const DAY = 86_400_000;
const day = (offset: number) => new Date(NOW + offset * DAY).toISOString().slice(0, 10);
const TODAY = day(0);

type Who = 'root' | 'pla' | 'gus' | 'rep' | 'out';
const TOKENS: Record<Who, string> = { root: 'root-token', pla: 'pla-token', gus: 'gus-token', rep: 'rep-token', out: 'out-token' };
const PROJECTS = ['acme/p1', 'acme/sub/p2', 'other/p3'] as const;
type ProjectPath = (typeof PROJECTS)[number];
const VISIBILITY: Record<ProjectPath, 'private' | 'public' | 'internal'> = { 'acme/p1': 'private', 'acme/sub/p2': 'public', 'other/p3': 'internal' };
/** Access levels by project: pla is a planner of acme (so of both its projects), gus a guest of p1, rep a reporter of p3. */
const LEVEL: Record<ProjectPath, Partial<Record<Who, number>>> = { 'acme/p1': { pla: 15, gus: 10 }, 'acme/sub/p2': { pla: 15 }, 'other/p3': { rep: 20 } };
const WORDS = ['crash', 'login', 'Slow', 'page', 'button'];

interface ModelIssue {
  project: ProjectPath;
  iid: number;
  title: string;
  description: string;
  author: Who;
  assignee: Who | null;
  labels: string[];
  milestone: string | null;
  closed: boolean;
  confidential: boolean;
  due: string | null;
  created: number;
  updated: number;
  weight: number | null;
}

/** The milestones: title -> where, due and start dates. */
const MILESTONES: Record<ProjectPath | 'acme', { title: string; due: string | null; start: string | null; closed?: boolean }[]> = {
  'acme/p1': [{ title: 'm-past', due: day(-10), start: day(-20) }, { title: 'm-soon', due: day(5), start: day(-1) }, { title: 'm-far', due: day(30), start: day(10) }, { title: 'm-done', due: day(2), start: day(-5), closed: true }],
  'acme/sub/p2': [{ title: 'm-soon', due: day(7), start: null }],
  'other/p3': [{ title: 'm-past', due: day(-1), start: day(-3) }],
  acme: [{ title: 'g-ms', due: day(3), start: null }],
};
const milestoneChoices = (p: ProjectPath) => [null, ...MILESTONES[p].map((m) => m.title), ...(p.startsWith('acme/') ? ['g-ms'] : [])];

const issueArb = fc.record({
  project: fc.constantFrom(...PROJECTS),
  words: fc.subarray(WORDS, { minLength: 1, maxLength: 2 }),
  descWord: fc.option(fc.constantFrom(...WORDS), { nil: null }),
  author: fc.constantFrom<Who>('root', 'pla', 'gus', 'rep', 'out'),
  assignee: fc.constantFrom<Who | null>(null, 'gus', 'pla', 'rep'),
  labels: fc.subarray(['bug', 'ux', 'grp']),
  milestonePick: fc.nat(5),
  closed: fc.boolean(),
  confidential: fc.boolean(),
  due: fc.option(fc.integer({ min: -20, max: 45 }), { nil: null }),
  created: fc.integer({ min: 0, max: 6 }),
  updated: fc.integer({ min: 0, max: 3 }),
  weight: fc.constantFrom(null, 1, 3),
});

type RawIssue = typeof issueArb extends fc.Arbitrary<infer T> ? T : never;

function buildWorld(raw: RawIssue[]): { fixture: Fixture; issues: ModelIssue[] } {
  const counters: Record<string, number> = {};
  const issues: ModelIssue[] = raw.map((r) => {
    const iid = (counters[r.project] = (counters[r.project] ?? 0) + 1);
    const choices = milestoneChoices(r.project);
    const labels = r.labels.filter((l: string) => l !== 'grp' || r.project.startsWith('acme/'));
    const created = NOW - (10 - r.created) * DAY;
    return {
      project: r.project, iid, title: r.words.join(' '), description: r.descWord ? `about ${r.descWord}` : '', author: r.author, assignee: r.assignee,
      labels, milestone: choices[r.milestonePick % choices.length]!, closed: r.closed, confidential: r.confidential, due: r.due === null ? null : day(r.due),
      created, updated: created + r.updated * DAY, weight: r.weight,
    };
  });
  const fixture: Fixture = {
    // Premium, so that `weight` is an issue field and a filter.
    instance: { tier: 'premium' },
    users: (Object.keys(TOKENS) as Who[]).map((u) => ({ username: u, admin: u === 'root', tokens: [{ token: TOKENS[u] }] })),
    groups: [
      { path: 'acme', visibility: 'public', members: [{ user: 'pla', access_level: 'planner' }], labels: [{ name: 'grp' }], milestones: MILESTONES.acme.map((m) => ({ title: m.title, due_date: m.due, start_date: m.start })) },
      { path: 'sub', parent: 'acme', visibility: 'public' },
      { path: 'other', visibility: 'public' },
    ],
    projects: PROJECTS.map((path) => {
      const [ns, name] = [path.slice(0, path.lastIndexOf('/')), path.slice(path.lastIndexOf('/') + 1)];
      return {
        namespace: ns, path: name, visibility: VISIBILITY[path], creator: 'root',
        members: path === 'acme/p1' ? [{ user: 'gus', access_level: 'guest' as const }] : path === 'other/p3' ? [{ user: 'rep', access_level: 'reporter' as const }] : [],
        labels: [{ name: 'bug' }, { name: 'ux' }],
        milestones: MILESTONES[path].map((m) => ({ title: m.title, due_date: m.due, start_date: m.start, state: m.closed ? ('closed' as const) : ('active' as const) })),
        issues: issues.filter((i) => i.project === path).map((i) => ({
          title: i.title, description: i.description, author: i.author, assignees: i.assignee ? [i.assignee] : [], labels: i.labels, milestone: i.milestone ?? undefined,
          state: i.closed ? ('closed' as const) : ('opened' as const), confidential: i.confidential, due_date: i.due, created_at: new Date(i.created).toISOString(),
          updated_at: new Date(i.updated).toISOString(), weight: i.weight,
        })),
      };
    }),
  };
  return { fixture, issues };
}

// ---- the model, from the reference ----

function canSeeProject(who: Who | null, p: ProjectPath): boolean {
  if (who === 'root') return true;
  if (VISIBILITY[p] === 'public') return true;
  if (VISIBILITY[p] === 'internal') return who !== null;
  return who !== null && (LEVEL[p][who] ?? 0) >= 10;
}

function canSeeIssue(who: Who | null, i: ModelIssue): boolean {
  if (!canSeeProject(who, i.project)) return false;
  if (!i.confidential) return true;
  if (who === null) return false;
  return who === 'root' || (LEVEL[i.project][who] ?? 0) >= 15 || i.author === who || i.assignee === who;
}

function milestoneOf(i: ModelIssue) {
  if (!i.milestone) return null;
  return MILESTONES[i.project].find((m) => m.title === i.milestone) ?? MILESTONES.acme.find((m) => m.title === i.milestone)!;
}

/** Upcoming: per owner, the active milestone due soonest after today. */
function isUpcoming(i: ModelIssue): boolean {
  const m = milestoneOf(i);
  if (!m || m.closed || m.due === null || m.due <= TODAY) return false;
  const owner = MILESTONES[i.project].includes(m) ? MILESTONES[i.project] : MILESTONES.acme;
  const soonest = owner.filter((x) => !x.closed && x.due !== null && x.due > TODAY).sort((a, b) => (a.due! < b.due! ? -1 : 1))[0];
  return soonest === m;
}
const isStarted = (i: ModelIssue) => {
  const m = milestoneOf(i);
  return !!m && !m.closed && m.start !== null && m.start <= TODAY;
};

interface Query {
  list: 'all' | 'group' | 'project';
  project: ProjectPath;
  scope?: 'created_by_me' | 'assigned_to_me' | 'all';
  state?: 'opened' | 'closed';
  labels?: string;
  notLabels?: string;
  milestone?: string;
  milestoneId?: 'None' | 'Any' | 'Upcoming' | 'Started';
  author?: Who;
  notAuthor?: Who;
  assignee?: Who | 'None' | 'Any';
  iids?: number[];
  notIids?: number[];
  search?: string;
  inField?: 'title' | 'description';
  confidential?: boolean;
  dueDate?: '0' | 'any' | 'today' | 'tomorrow' | 'overdue' | 'week' | 'month' | 'next_month_and_previous_two_weeks';
  createdAfter?: number;
  updatedBefore?: number;
  weight?: '1' | '3' | 'None' | 'Any';
  notWeight?: '1' | '3';
  orderBy: 'created_at' | 'updated_at' | 'due_date' | 'title';
  sort: 'asc' | 'desc';
}

function dueMatch(v: NonNullable<Query['dueDate']>, d: string | null): boolean {
  const add = (n: number) => new Date(Date.parse(`${TODAY}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
  const monthEnd = (ahead: number) => { const t = new Date(`${TODAY}T00:00:00Z`); return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + ahead + 1, 0)).toISOString().slice(0, 10); };
  switch (v) {
    case '0': return d === null;
    case 'any': return d !== null;
    case 'today': return d === TODAY;
    case 'tomorrow': return d === add(1);
    case 'overdue': return d !== null && d < TODAY;
    case 'week': return d !== null && d >= add(-2) && d <= add(4); // Wednesday: Monday is two days back
    case 'month': return d !== null && d >= `${TODAY.slice(0, 7)}-01` && d <= monthEnd(0);
    case 'next_month_and_previous_two_weeks': return d !== null && d >= add(-14) && d <= monthEnd(1);
  }
}

/** Ids ascend in the order the fixture seeds issues: project by project, then by iid. */
function idOf(_issues: ModelIssue[], i: ModelIssue) {
  return PROJECTS.indexOf(i.project) * 1000 + i.iid;
}

function model(issues: ModelIssue[], who: Who | null, q: Query): ModelIssue[] {
  const inList = (i: ModelIssue) => (q.list === 'project' ? i.project === q.project : q.list === 'group' ? i.project.startsWith('acme/') : true);
  const scope = q.scope ?? (q.list === 'all' ? 'created_by_me' : 'all');
  const out = issues.filter((i) => {
    if (!inList(i) || !canSeeIssue(who, i)) return false;
    if (scope === 'created_by_me' && i.author !== who) return false;
    if (scope === 'assigned_to_me' && (who === null || i.assignee !== who)) return false;
    if (q.state && (q.state === 'closed') !== i.closed) return false;
    if (q.labels) {
      const names = q.labels.split(',');
      if (names.some((n) => n.toLowerCase() === 'none')) { if (i.labels.length) return false; }
      else if (names.some((n) => n.toLowerCase() === 'any')) { if (!i.labels.length) return false; }
      else if (!names.every((n) => i.labels.includes(n))) return false;
    }
    if (q.notLabels && q.notLabels.split(',').some((n) => i.labels.includes(n))) return false;
    if (q.milestone !== undefined) {
      if (q.milestone === 'None' ? i.milestone !== null : q.milestone === 'Any' ? i.milestone === null : i.milestone !== q.milestone) return false;
    }
    if (q.milestoneId === 'None' && i.milestone !== null) return false;
    if (q.milestoneId === 'Any' && i.milestone === null) return false;
    if (q.milestoneId === 'Upcoming' && !isUpcoming(i)) return false;
    if (q.milestoneId === 'Started' && !isStarted(i)) return false;
    if (q.author && i.author !== q.author) return false;
    if (q.notAuthor && i.author === q.notAuthor) return false;
    if (q.assignee === 'None' ? i.assignee !== null : q.assignee === 'Any' ? i.assignee === null : q.assignee !== undefined && i.assignee !== q.assignee) return false;
    if (q.iids && !q.iids.includes(i.iid)) return false;
    // The group list takes no not[iids] (the spec's list of its not[] keys): Grape drops it.
    if (q.notIids && q.list !== 'group' && q.notIids.includes(i.iid)) return false;
    if (q.search) {
      const fields = q.inField ? [q.inField === 'title' ? i.title : i.description] : [i.title, i.description];
      if (!fields.some((f) => f.toLowerCase().includes(q.search!.toLowerCase()))) return false;
    }
    if (q.confidential !== undefined && i.confidential !== q.confidential) return false;
    if (q.dueDate && !dueMatch(q.dueDate, i.due)) return false;
    if (q.createdAfter !== undefined && i.created < q.createdAfter) return false;
    if (q.updatedBefore !== undefined && i.updated > q.updatedBefore) return false;
    if (q.weight === 'None' ? i.weight !== null : q.weight === 'Any' ? i.weight === null : q.weight !== undefined && i.weight !== Number(q.weight)) return false;
    // not[weight] is among the /issues list's not[] keys (and the project list's), not the group list's.
    if (q.notWeight !== undefined && q.list !== 'group' && i.weight === Number(q.notWeight)) return false;
    return true;
  });
  const key = (i: ModelIssue) => (q.orderBy === 'created_at' ? i.created : q.orderBy === 'updated_at' ? i.updated : q.orderBy === 'due_date' ? i.due : i.title.toLowerCase());
  const dir = q.sort === 'asc' ? 1 : -1;
  return out.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) {
      if (ka === null) return 1;
      if (kb === null) return -1;
      return (ka < kb ? -1 : 1) * dir;
    }
    return idOf(issues, b) - idOf(issues, a); // id descending whatever the direction
  });
}

function queryString(q: Query, ids: Record<Who, number>): string {
  const p = new URLSearchParams();
  if (q.scope) p.set('scope', q.scope);
  if (q.state) p.set('state', q.state);
  if (q.labels) p.set('labels', q.labels);
  if (q.notLabels) p.set('not[labels]', q.notLabels);
  if (q.milestone !== undefined) p.set('milestone', q.milestone);
  if (q.milestoneId) p.set('milestone_id', q.milestoneId);
  if (q.author) p.set('author_username', q.author);
  if (q.notAuthor) p.set('not[author_id]', String(ids[q.notAuthor]));
  if (q.assignee) p.set('assignee_id', q.assignee === 'None' || q.assignee === 'Any' ? q.assignee : String(ids[q.assignee]));
  for (const n of q.iids ?? []) p.append('iids[]', String(n));
  for (const n of q.notIids ?? []) p.append('not[iids][]', String(n));
  if (q.search) p.set('search', q.search);
  if (q.inField) p.set('in', q.inField);
  if (q.confidential !== undefined) p.set('confidential', String(q.confidential));
  if (q.dueDate) p.set('due_date', q.dueDate);
  if (q.createdAfter !== undefined) p.set('created_after', new Date(q.createdAfter).toISOString());
  if (q.updatedBefore !== undefined) p.set('updated_before', new Date(q.updatedBefore).toISOString());
  if (q.weight) p.set('weight', q.weight);
  if (q.notWeight) p.set('not[weight]', q.notWeight);
  p.set('order_by', q.orderBy);
  p.set('sort', q.sort);
  return p.toString();
}

const FILTER_KEYS = ['scope', 'state', 'labels', 'notLabels', 'milestone', 'milestoneId', 'author', 'notAuthor', 'assignee', 'iids', 'notIids', 'search', 'inField', 'confidential', 'dueDate', 'createdAfter', 'updatedBefore', 'weight', 'notWeight'] as const;

const queryArb: fc.Arbitrary<Query> = fc.record(
  {
    list: fc.constantFrom<Query['list']>('all', 'group', 'project'),
    project: fc.constantFrom(...PROJECTS),
    scope: fc.constantFrom<Query['scope']>('created_by_me', 'assigned_to_me', 'all'),
    state: fc.constantFrom<Query['state']>('opened', 'closed'),
    labels: fc.constantFrom('bug', 'ux', 'bug,ux', 'grp', 'None', 'any', 'zzz', 'bug,zzz'),
    notLabels: fc.constantFrom('bug', 'ux,grp', 'zzz'),
    milestone: fc.constantFrom('None', 'Any', 'm-soon', 'm-past', 'g-ms', 'nope'),
    milestoneId: fc.constantFrom<Query['milestoneId']>('None', 'Any', 'Upcoming', 'Started'),
    author: fc.constantFrom<Who>('root', 'pla', 'gus', 'rep', 'out'),
    notAuthor: fc.constantFrom<Who>('pla', 'gus'),
    assignee: fc.constantFrom<Query['assignee']>('gus', 'pla', 'None', 'Any'),
    iids: fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 3 }),
    notIids: fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 2 }),
    search: fc.constantFrom('crash', 'LOGIN', 'slow', 'about', 'zz'),
    inField: fc.constantFrom<Query['inField']>('title', 'description'),
    confidential: fc.boolean(),
    dueDate: fc.constantFrom<Query['dueDate']>('0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks'),
    createdAfter: fc.integer({ min: 4, max: 10 }).map((n) => NOW - n * DAY),
    updatedBefore: fc.integer({ min: 3, max: 8 }).map((n) => NOW - n * DAY),
    weight: fc.constantFrom<Query['weight']>('1', '3', 'None', 'Any'),
    notWeight: fc.constantFrom<Query['notWeight']>('1', '3'),
    orderBy: fc.constantFrom<Query['orderBy']>('created_at', 'updated_at', 'due_date', 'title'),
    sort: fc.constantFrom<Query['sort']>('asc', 'desc'),
  },
).chain((full) =>
  // Two or three filters at a time, so that most answers are not empty.
  fc.subarray([...FILTER_KEYS], { maxLength: 3 }).map((keys) => {
    const q: Query = { list: full.list, project: full.project, orderBy: full.orderBy, sort: full.sort };
    for (const k of keys) (q as unknown as Record<string, unknown>)[k] = (full as unknown as Record<string, unknown>)[k];
    return q;
  }),
).filter((q) => !(q.milestone !== undefined && q.milestoneId !== undefined));

const callerArb = fc.constantFrom<Who | null>(null, 'root', 'pla', 'gus', 'rep', 'out');

async function ask(emulator: Emulator, path: string, token?: string) {
  const res = await apiCall(emulator, path, { token });
  return { status: res.status, body: (await res.json()) as { project_id: number; iid: number }[], headers: res.headers };
}

describe('the issue lists against the model', () => {
  it('equal the model for random worlds, filters and callers; pages return every match once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(issueArb, { minLength: 0, maxLength: 16 }), fc.array(fc.tuple(queryArb, callerArb, fc.integer({ min: 1, max: 4 })), { minLength: 6, maxLength: 6 }), async (raw, queries) => {
        const { fixture, issues } = buildWorld(raw);
        const emulator = await createEmulator({ fixture, clock: { now: new Date(NOW).toISOString(), frozen: true } });
        const userIds = {} as Record<Who, number>;
        const projectIds = {} as Record<ProjectPath, number>;
        for (const who of Object.keys(TOKENS) as Who[]) userIds[who] = (await (await apiCall(emulator, '/user', { token: TOKENS[who] })).json()).id;
        for (const p of PROJECTS) projectIds[p] = (await (await apiCall(emulator, `/projects/${encodeURIComponent(p)}`, { token: 'root-token' })).json()).id;
        const pathOf = (id: number) => PROJECTS.find((p) => projectIds[p] === id)!;
        for (const [q, who, perPage] of queries) {
          const base = q.list === 'all' ? '/issues' : q.list === 'group' ? '/groups/acme/issues' : `/projects/${encodeURIComponent(q.project)}/issues`;
          const token = who ? TOKENS[who] : undefined;
          const url = `${base}?${queryString(q, userIds)}`;
          const res = await ask(emulator, `${url}&per_page=100`, token);
          const expectedStatus = q.list === 'all' && who === null && q.scope !== 'all' ? 401 : q.list === 'project' && !canSeeProject(who, q.project) ? 404 : 200;
          expect(res.status, `${who} ${url}`).toBe(expectedStatus);
          if (res.status !== 200) continue;
          const expected = model(issues, who, q).map((i) => `${i.project}#${i.iid}`);
          expect(res.body.map((i) => `${pathOf(i.project_id)}#${i.iid}`), `${who} ${url}`).toEqual(expected);
          // Paging: every match exactly once, in order.
          const paged: string[] = [];
          for (let page = 1; page <= 20; page++) {
            const r = await ask(emulator, `${url}&per_page=${perPage}&page=${page}`, token);
            paged.push(...r.body.map((i) => `${pathOf(i.project_id)}#${i.iid}`));
            if (r.headers.get('x-next-page') === '') break;
          }
          expect(paged).toEqual(expected);
          // Keyset pages (the project list) follow their Link to the same matches, each once.
          if (q.list === 'project') {
            const keyed: string[] = [];
            let next: string | null = `${url}&pagination=keyset&per_page=${perPage}`;
            for (let n = 0; next && n < 20; n++) {
              const r = await ask(emulator, next, token);
              keyed.push(...r.body.map((i) => `${pathOf(i.project_id)}#${i.iid}`));
              const link = /<([^>]+)>; rel="next"/.exec(r.headers.get('link') ?? '');
              next = link ? link[1]!.replace('https://gitlab.example.com/api/v4', '') : null;
            }
            expect(keyed, `keyset ${url}`).toEqual(expected);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});
