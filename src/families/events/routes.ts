// The events API (lib/api/events.rb, project_events.rb, helpers/events_helpers.rb, EventsFinder):
// the caller's events (or, with `scope=all`, those of every project they are a member of), a
// user's contribution events and a project's visible events, newest first; `action`,
// `target_type`, `before` and `after` filter, `sort=asc` reverses. Rows come from the stream's
// log. As EventsFinder, the projects the caller cannot see are left out before the page is cut
// (X-Total counts the rest) and each row's own ability is checked on the page.
import { date, str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { canReadProject, projectAccess } from '../../policy/access.js';
import { ACCESS } from '../../store/state.js';
import { tget, tvalues, tvaluesDesc, type Table } from '../../store/table.js';
import { offsetHeaders, pageRequest, type PageInput } from '../../http/pagination.js';
import { canReadProfile, visibleUser } from '../users/index.js';
import { project, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { eventEntity } from './entity.js';
import { authorKey, dayKey, dayOf, daysKey, inTimeOrder, projectKey, rowIds } from './index-rows.js';
import { ACTIONS, rowOf, TARGET_TYPES, type EventRow } from './rows.js';

const FILTERS = {
  action: str().values(ACTIONS),
  target_type: str().values(Object.keys(TARGET_TYPES) as (keyof typeof TARGET_TYPES)[]),
  before: date(),
  after: date(),
  sort: str().values(['asc', 'desc'] as const).default('desc'),
};

type Filters = { action?: string; target_type?: keyof typeof TARGET_TYPES; before?: string; after?: string; sort: 'asc' | 'desc' };

/**
 * The days `before` and `after` leave (created_at > after.end_of_day, < before.beginning_of_day):
 * the whole days between them, each excluded.
 */
function dayRange(f: Filters): { from: number; to: number } {
  return {
    from: f.after !== undefined ? dayOf(Date.parse(`${f.after}T00:00:00Z`)) + 1 : -Infinity,
    to: f.before !== undefined ? dayOf(Date.parse(`${f.before}T00:00:00Z`)) - 1 : Infinity,
  };
}

/** The rows of `ids` (newest first) that pass the filters and whose project the caller may see. */
function walk(ctx: Context<unknown>, ids: Iterable<number>, f: Filters, keep: (row: EventRow) => boolean = () => true): EventRow[] {
  const state = ctx.state;
  const now = ctx.now();
  const { from, to } = dayRange(f);
  const type = f.target_type !== undefined ? TARGET_TYPES[f.target_type] : undefined;
  const seen = new Map<number, boolean>();
  const out: EventRow[] = [];
  for (const id of ids) {
    const e = tget(state.events, id);
    const row = e && rowOf(e);
    if (!row || !keep(row)) continue;
    if (f.action !== undefined && row.action !== f.action) continue;
    if (type !== undefined && (row.target?.type ?? null) !== type) continue;
    const day = dayOf(row.event.at);
    if (day < from || day > to) continue;
    let visible = seen.get(row.projectId);
    if (visible === undefined) {
      const p = tget(state.projects, row.projectId);
      seen.set(row.projectId, (visible = p !== undefined && canReadProject(state, ctx.user, p, now)));
    }
    if (visible) out.push(row);
  }
  return f.sort === 'asc' ? out.reverse() : out;
}

/** One page of rows, with GitLab's headers; rows whose target the caller may not read are dropped from it. */
function render(ctx: Context<unknown>, rows: readonly EventRow[]): Reply {
  const state = ctx.state;
  const now = ctx.now();
  const shown = rows.filter((row) => row.visible(state, ctx.user, tget(state.projects, row.projectId)!, now));
  return json(shown.map((row) => eventEntity(state, row, tget(state.pushPayloads, row.event.id), ctx)));
}

const page = (ctx: Context<unknown>, all: EventRow[]): Reply => render(ctx, ctx.paginate(all));

/**
 * A project's events: an index names exactly the rows of each `action` and `target_type`, and
 * of each day, so X-Total is a table's size (or its days' sizes) and the page reads only its own
 * ids. A project whose rows did not come in time order walks its rows for dates instead.
 */
function projectPage(ctx: Context<Filters & PageInput>, projectId: number): Reply {
  const f = ctx.params;
  const state = ctx.state;
  const key = projectKey(projectId, { action: f.action, targetType: f.target_type !== undefined ? TARGET_TYPES[f.target_type] : undefined });
  let tables: Table<number>[];
  if (f.before === undefined && f.after === undefined) tables = [rowIds(state, key)].filter((t) => t !== undefined);
  else if (!inTimeOrder(state, projectId)) return page(ctx, walk(ctx, idsOf(rowIds(state, key), 'desc'), f));
  else {
    const { from, to } = dayRange(f);
    tables = [...idsOf(rowIds(state, daysKey(key)), f.sort)].filter((d) => d >= from && d <= to).map((d) => rowIds(state, dayKey(key, d))!);
  }
  Object.assign(ctx.responseHeaders, offsetHeaders(tables.reduce((n, t) => n + t.size, 0), f, ctx.linkBase));
  const { page: n, perPage } = pageRequest(f);
  const rows: EventRow[] = [];
  let skip = (n - 1) * perPage;
  for (const table of tables) {
    if (skip >= table.size) {
      skip -= table.size;
      continue;
    }
    for (const id of idsOf(table, f.sort)) {
      if (skip-- > 0) continue;
      if (rows.length === perPage) break;
      rows.push(rowOf(tget(state.events, id)!)!);
    }
    if (rows.length === perPage) break;
  }
  return render(ctx, rows);
}

function idsOf(table: Table<number> | undefined, order: 'asc' | 'desc'): IterableIterator<number> {
  return !table ? [][Symbol.iterator]() : order === 'asc' ? tvalues(table) : tvaluesDesc(table);
}

function* allIds(state: State): IterableIterator<number> {
  for (const e of tvaluesDesc(state.events)) yield e.id;
}

export const eventRoutes = [
  route({
    method: 'GET',
    path: '/events',
    auth: 'user',
    scopes: ['read_user'],
    paginated: true,
    params: { ...FILTERS, scope: str() },
    handler: (ctx) => {
      const user = ctx.user!;
      if (ctx.params.scope === 'all') {
        // EventCollection over the caller's authorized projects.
        const now = ctx.now();
        const member = new Map<number, boolean>();
        const mine = (row: EventRow) => {
          let is = member.get(row.projectId);
          if (is === undefined) {
            const p = tget(ctx.state.projects, row.projectId);
            member.set(row.projectId, (is = p !== undefined && projectAccess(ctx.state, user, p, now) >= ACCESS.guest));
          }
          return is;
        };
        return page(ctx, walk(ctx, allIds(ctx.state), ctx.params, mine));
      }
      return page(ctx, walk(ctx, idsOf(rowIds(ctx.state, authorKey(user.id)), 'desc'), ctx.params));
    },
  }),
  route({
    method: 'GET',
    path: '/users/:id/events',
    scopes: ['read_user'],
    paginated: true,
    params: { id: str().required(), ...FILTERS },
    subject: visibleUser('id'),
    handler: (ctx) => {
      const user = ctx.subject;
      // EventsFinder#cannot_access_private_profile?: no events, rather than a 404.
      if (!canReadProfile(ctx.user, user)) return page(ctx, []);
      return page(ctx, walk(ctx, idsOf(rowIds(ctx.state, authorKey(user.id)), 'desc'), ctx.params));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/events',
    scope: project(),
    paginated: true,
    params: FILTERS,
    handler: (ctx) => projectPage(ctx, ctx.project.id),
  }),
];
