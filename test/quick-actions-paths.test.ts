// One interpreter for descriptions and notes: every command, written in a new issue's (or merge
// request's) description and in a note on the same issuable once it exists, must leave the
// issuable the same wherever GitLab's conditions let it run in both (`both`); must stay in the
// description and run from the note where its condition needs the issuable to exist (`note`);
// and must run in neither where the kind does not take it (`neither`). Each row runs on the
// seeded world twice: once created with the command in its description, once created without
// it and then given the note.
import { describe, expect, it } from 'vitest';
import type { Emulator, Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, runNoteCommands, seededWorld } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z'; // a Wednesday
const APP = '/projects/acme%2Fapp';

function fixture(tier: 'free' | 'premium'): Fixture {
  return {
    instance: { tier },
    users: TEAM,
    groups: [{
      ...ACME, members: TEAM_MEMBERS,
      ...(tier === 'premium' ? { epics: [{ title: 'Platform', author: 'mai' }], iterations: [{ title: 'Sprint 1', start_date: '2024-03-04', due_date: '2024-03-17' }] } : {}),
    }],
    projects: [{
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root',
      labels: [{ name: 'bug' }, { name: 'feature' }], milestones: [{ title: 'v1' }],
      repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Add a feature', files: { 'feature.txt': 'new\n' } }] },
      issues: [{ title: 'Canonical', author: 'mai' }],
    }],
  };
}

type Kind = 'issue' | 'merge_request';
interface Ids { dev: number; rep: number; v1: number }
interface Row {
  line: string;
  /** Where GitLab's conditions let it run, for an issuable made by the caller (a Developer). */
  paths: 'both' | 'note' | 'neither';
  /** Create params both issuables get. */
  setup?: (ids: Ids) => Record<string, unknown>;
  /** What the existing issuable needs before the note (a to-do to mark done, an approval to take back). */
  prepare?: (e: Emulator, iid: number) => Promise<unknown>;
  /** What the issuable shows after the command ran. */
  then?: Record<string, unknown>;
}

async function get(e: Emulator, path: string) {
  return (await apiCall(e, path, { token: 'dev-token' })).json();
}

async function post(e: Emulator, path: string, json: Record<string, unknown>) {
  const res = await apiCall(e, path, { method: 'POST', token: 'dev-token', json });
  expect(res.status).toBe(201);
  return res.json();
}

/** What a command may change of an issue or a merge request, as the API shows it to its author. */
async function view(e: Emulator, kind: Kind, iid: number) {
  const x = await get(e, `${APP}/${kind}s/${iid}`);
  const shown: Record<string, unknown> = {
    state: x.state, title: x.title, labels: x.labels, assignees: x.assignees.map((a: { username: string }) => a.username), milestone: x.milestone?.title ?? null,
    discussion_locked: x.discussion_locked, time_estimate: x.time_stats.time_estimate, time_spent: x.time_stats.total_time_spent, subscribed: x.subscribed,
    upvotes: x.upvotes,
    // The to-dos /todo and /done make and finish (runNoteCommands applies a note's commands without the stream's subscribers).
    todos: (await get(e, '/todos')).filter((t: { action_name: string }) => t.action_name === 'marked').length,
  };
  if (kind === 'issue') {
    Object.assign(shown, {
      due_date: x.due_date, confidential: x.confidential, duplicate_of: x._links.closed_as_duplicate_of, weight: x.weight, epic: x.epic?.iid ?? null, iteration: x.iteration?.title ?? null,
    });
  } else Object.assign(shown, { draft: x.draft, approved_by: (await get(e, `${APP}/merge_requests/${iid}/approvals`)).approved_by.map((a: { user: { username: string } }) => a.user.username) });
  return shown;
}

/** The command through both paths, each on the seeded world. */
async function bothPaths(e: Emulator, kind: Kind, row: Row) {
  const seeded = e.snapshot();
  const users = await get(e, '/users?per_page=100');
  const idOf = (name: string) => users.find((u: { username: string }) => u.username === name).id;
  const ids: Ids = { dev: idOf('dev'), rep: idOf('rep'), v1: (await get(e, `${APP}/milestones?title=v1`))[0].id };
  const params = (description: string) => ({
    title: 'Made', description, ...(kind === 'merge_request' ? { source_branch: 'feature', target_branch: 'main' } : {}), ...row.setup?.(ids),
  });
  const made = await post(e, `${APP}/${kind}s`, params(`Text\n${row.line}`));
  const described = { description: made.description, view: await view(e, kind, made.iid) };
  e.restore(seeded);
  const plain = await post(e, `${APP}/${kind}s`, params('Text'));
  const baseline = await view(e, kind, plain.iid);
  await row.prepare?.(e, plain.iid);
  const on = kind === 'issue' ? { issue: plain.iid } : { mergeRequest: plain.iid };
  const note = await runNoteCommands(e, 'acme/app', on, 'dev', row.line, plain.sha);
  return { described, baseline, note, noted: await view(e, kind, plain.iid) };
}

function check(world: () => Emulator, kind: Kind, rows: Row[]) {
  for (const row of rows) {
    it(`${row.line}: ${row.paths === 'both' ? 'description and note alike' : row.paths === 'note' ? 'a note only' : 'neither'}`, async () => {
      const { described, baseline, note, noted } = await bothPaths(world(), kind, row);
      const refused = note.messages.filter((m) => m.startsWith('Could not apply'));
      if (row.paths === 'both') {
        expect(described.description).toBe('Text');
        expect(refused).toEqual([]);
        expect(noted).toEqual(described.view);
      } else {
        // Taken out of the description, as GitLab's extractor takes every known command, and not run.
        expect(described.description).toBe('Text');
        expect(described.view).toEqual(baseline);
        expect(note.executed).toBe(1);
        if (row.paths === 'note') expect(refused).toEqual([]);
        else {
          expect(refused).toHaveLength(1);
          expect(noted).toEqual(baseline);
        }
      }
      if (row.then) expect(noted).toMatchObject(row.then);
    });
  }
}

const ISSUE_ROWS: Row[] = [
  { line: '/label ~bug', paths: 'both', then: { labels: ['bug'] } },
  { line: '/labels bug feature', paths: 'both', then: { labels: ['bug', 'feature'] } },
  { line: '/label ~nope', paths: 'both', then: { labels: [] } },
  { line: '/assign @rep', paths: 'both', then: { assignees: ['rep'] } },
  { line: '/assign me', paths: 'both', then: { assignees: ['dev'] } },
  { line: '/milestone %v1', paths: 'both', then: { milestone: 'v1' } },
  { line: '/estimate 2h', paths: 'both', then: { time_estimate: 7200 } },
  { line: '/estimate_time 1d', paths: 'both', then: { time_estimate: 28_800 } },
  { line: '/spend 30m', paths: 'both', then: { time_spent: 1800 } },
  { line: '/spent 1h 2024-03-01', paths: 'both', then: { time_spent: 3600 } },
  { line: '/spend_time 15m', paths: 'both', then: { time_spent: 900 } },
  { line: '/due in 2 days', paths: 'both', then: { due_date: '2024-03-08' } },
  { line: '/due yesterday', paths: 'both', then: { due_date: '2024-03-05' } },
  { line: '/due next monday', paths: 'both', then: { due_date: '2024-03-11' } },
  { line: '/due 2027-01-15', paths: 'both', then: { due_date: '2027-01-15' } },
  { line: '/due tomorrow', paths: 'both', then: { due_date: '2024-03-07' } },
  { line: '/due friday', paths: 'both', then: { due_date: '2024-03-08' } },
  { line: '/due jan 15', paths: 'both', then: { due_date: '2025-01-15' } },
  { line: '/due someday', paths: 'both', then: { due_date: null } },
  { line: '/confidential', paths: 'both', then: { confidential: true } },
  { line: '/weight 3', paths: 'both', then: { weight: 3 } },
  { line: '/epic &1', paths: 'both', then: { epic: 1 } },
  { line: '/iteration *iteration:"Sprint 1"', paths: 'both', then: { iteration: 'Sprint 1' } },
  // GitLab's conditions need the issue to exist (persisted?), or what only an existing one has.
  { line: '/close', paths: 'note', then: { state: 'closed' } },
  { line: '/reopen', paths: 'note', then: { state: 'opened' }, prepare: (e, iid) => apiCall(e, `${APP}/issues/${iid}`, { method: 'PUT', token: 'dev-token', json: { state_event: 'close' } }) },
  { line: '/title Renamed', paths: 'note', then: { title: 'Renamed' } },
  { line: '/relabel ~feature', paths: 'note', setup: () => ({ labels: 'bug' }), then: { labels: ['feature'] } },
  { line: '/unlabel ~bug', paths: 'note', setup: () => ({ labels: 'bug,feature' }), then: { labels: ['feature'] } },
  { line: '/remove_label', paths: 'note', setup: () => ({ labels: 'bug' }), then: { labels: [] } },
  { line: '/unassign', paths: 'note', setup: (ids) => ({ assignee_ids: [ids.rep] }), then: { assignees: [] } },
  { line: '/remove_milestone', paths: 'note', setup: (ids) => ({ milestone_id: ids.v1 }), then: { milestone: null } },
  { line: '/remove_due_date', paths: 'note', setup: () => ({ due_date: '2024-04-01' }), then: { due_date: null } },
  { line: '/remove_estimate', paths: 'note', then: { time_estimate: 0 } },
  { line: '/remove_time_estimate', paths: 'note', then: { time_estimate: 0 } },
  { line: '/remove_time_spent', paths: 'note', then: { time_spent: 0 } },
  { line: '/lock', paths: 'note', then: { discussion_locked: true } },
  { line: '/unlock', paths: 'note', setup: () => ({ discussion_locked: true }), then: { discussion_locked: false } },
  { line: '/todo', paths: 'note', then: { todos: 1 } },
  { line: '/done', paths: 'note', prepare: (e, iid) => apiCall(e, `${APP}/issues/${iid}/todo`, { method: 'POST', token: 'dev-token' }), then: { todos: 0 } },
  { line: '/unsubscribe', paths: 'note', then: { subscribed: false } },
  { line: '/subscribe', paths: 'note', prepare: (e, iid) => apiCall(e, `${APP}/issues/${iid}/unsubscribe`, { method: 'POST', token: 'dev-token' }), then: { subscribed: true } },
  { line: '/award :thumbsup:', paths: 'note', then: { upvotes: 1 } },
  { line: '/react :thumbsup:', paths: 'note', then: { upvotes: 1 } },
  { line: '/duplicate #1', paths: 'note', then: { state: 'closed', duplicate_of: expect.stringMatching(/\/issues\/1$/) } },
  { line: '/clear_weight', paths: 'note', setup: () => ({ weight: 2 }), then: { weight: null } },
  { line: '/remove_epic', paths: 'note', setup: () => ({ epic_iid: 1 }), then: { epic: null } },
  { line: '/promote', paths: 'note', then: { state: 'closed' } },
  // Merge requests' own.
  { line: '/merge', paths: 'neither' },
  { line: '/draft', paths: 'neither' },
  { line: '/approve', paths: 'neither' },
  { line: '/unapprove', paths: 'neither' },
];

const MERGE_REQUEST_ROWS: Row[] = [
  { line: '/label ~bug', paths: 'both', then: { labels: ['bug'] } },
  { line: '/assign @rep', paths: 'both', then: { assignees: ['rep'] } },
  { line: '/milestone %v1', paths: 'both', then: { milestone: 'v1' } },
  { line: '/estimate 2h', paths: 'both', then: { time_estimate: 7200 } },
  { line: '/spend 30m', paths: 'both', then: { time_spent: 1800 } },
  { line: '/draft', paths: 'both', then: { draft: true, title: 'Draft: Made' } },
  { line: '/draft', paths: 'both', setup: () => ({ title: 'Draft: Made' }), then: { draft: false, title: 'Made' } },
  { line: '/close', paths: 'note', then: { state: 'closed' } },
  { line: '/title Renamed', paths: 'note', then: { title: 'Renamed' } },
  { line: '/relabel ~feature', paths: 'note', setup: () => ({ labels: 'bug' }), then: { labels: ['feature'] } },
  { line: '/unlabel', paths: 'note', setup: () => ({ labels: 'bug' }), then: { labels: [] } },
  { line: '/unassign', paths: 'note', setup: (ids) => ({ assignee_ids: [ids.rep] }), then: { assignees: [] } },
  { line: '/remove_milestone', paths: 'note', setup: (ids) => ({ milestone_id: ids.v1 }), then: { milestone: null } },
  { line: '/remove_estimate', paths: 'note', then: { time_estimate: 0 } },
  { line: '/remove_time_spent', paths: 'note', then: { time_spent: 0 } },
  { line: '/lock', paths: 'note', then: { discussion_locked: true } },
  {
    line: '/unlock', paths: 'note', then: { discussion_locked: false },
    prepare: (e, iid) => apiCall(e, `${APP}/merge_requests/${iid}`, { method: 'PUT', token: 'dev-token', json: { discussion_locked: true } }),
  },
  { line: '/todo', paths: 'note', then: { todos: 1 } },
  { line: '/done', paths: 'note', prepare: (e, iid) => apiCall(e, `${APP}/merge_requests/${iid}/todo`, { method: 'POST', token: 'dev-token' }), then: { todos: 0 } },
  { line: '/unsubscribe', paths: 'note', then: { subscribed: false } },
  { line: '/award :thumbsup:', paths: 'note', then: { upvotes: 1 } },
  { line: '/merge', paths: 'note', then: { state: 'merged' } },
  { line: '/approve', paths: 'note', then: { approved_by: ['dev'] } },
  {
    line: '/unapprove', paths: 'note', then: { approved_by: [] },
    prepare: (e, iid) => apiCall(e, `${APP}/merge_requests/${iid}/approve`, { method: 'POST', token: 'dev-token' }),
  },
  // Issues' own.
  { line: '/due tomorrow', paths: 'neither' },
  { line: '/confidential', paths: 'neither' },
  { line: '/duplicate #1', paths: 'neither' },
];

describe('every issue command through a new issue’s description and a note (premium)', () => {
  check(seededWorld(fixture('premium'), NOW), 'issue', ISSUE_ROWS);
});

describe('every merge request command through a new merge request’s description and a note', () => {
  check(seededWorld(fixture('free'), NOW), 'merge_request', MERGE_REQUEST_ROWS);
});

describe('the higher tiers’ commands on the free tier', () => {
  const world = seededWorld(fixture('free'), NOW);
  for (const line of ['/weight 3', '/clear_weight', '/iteration *iteration:"Sprint 1"', '/epic &1', '/remove_epic', '/promote']) {
    it(`${line} is text in a description and in a note`, async () => {
      const made = await post(world(), `${APP}/issues`, { title: 'Made', description: `Text\n${line}` });
      expect(made.description).toBe(`Text\n${line}`);
      const note = await runNoteCommands(world(), 'acme/app', { issue: made.iid }, 'dev', line);
      expect(note).toMatchObject({ content: line, executed: 0, messages: [] });
    });
  }
});
