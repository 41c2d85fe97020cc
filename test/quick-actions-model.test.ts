// A property test of notes' quick actions: random sequences of notes made of commands (by a
// Planner and by the issue's author, a Guest), and of API edits, applied to one issue; the
// issue's final state, the system notes and the resource events must be what a plain model of
// GitLab's rules predicts (conditions checked against the issue as it was before each note,
// update params merged as the commands run, then applied as Issues::UpdateService does).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Snapshot } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, issueRecord, notesOf } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const PATH = 'acme/app';
const LABELS = ['bug', 'feature', 'two words'];

const FIXTURE: Fixture = {
  users: [...TEAM, { username: 'pla', name: 'Pla Nner', email: 'pla@example.com', tokens: [{ token: 'planner-token', scopes: ['api'] }] }],
  groups: [{ ...ACME, milestones: [{ title: 'Q1' }] }],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: [...TEAM_MEMBERS, { user: 'pla', access_level: 'planner' }],
    labels: LABELS.map((name) => ({ name })),
    milestones: [{ title: 'v1' }],
    issues: [{ title: 'Alpha', author: 'gus' }],
  }],
};

type Cmd =
  | { c: 'close' } | { c: 'reopen' } | { c: 'title'; t: string } | { c: 'label'; l: string } | { c: 'unlabel'; l: string | null } | { c: 'relabel'; l: string }
  | { c: 'assign'; u: string } | { c: 'unassign' } | { c: 'milestone'; m: string } | { c: 'remove_milestone' } | { c: 'due'; d: string } | { c: 'remove_due_date' }
  | { c: 'lock' } | { c: 'unlock' } | { c: 'confidential' } | { c: 'estimate'; h: number } | { c: 'remove_estimate' } | { c: 'spend'; h: number } | { c: 'remove_time_spent' };

const TOKENS = { pla: 'planner-token', gus: 'guest-token', out: 'outsider-token' } as const;

/** A note on the issue through the API, as its user. */
async function postNote(emulator: Emulator, user: keyof typeof TOKENS, body: string) {
  const res = await apiCall(emulator, '/projects/acme%2Fapp/issues/1/notes', { method: 'POST', token: TOKENS[user], json: { body } });
  return { status: res.status, body: await res.json() };
}

type Step = { kind: 'note'; user: 'pla' | 'gus'; cmds: Cmd[] } | { kind: 'put'; title?: string; stateEvent?: 'close' | 'reopen' };

const TITLES = ['Alpha', 'Alpha beta', 'Gamma', 'alpha'];
const label = fc.constantFrom(...LABELS, 'nope');
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.constant({ c: 'close' as const }), fc.constant({ c: 'reopen' as const }), fc.constantFrom(...TITLES).map((t) => ({ c: 'title' as const, t })),
  label.map((l) => ({ c: 'label' as const, l })), fc.option(label, { nil: null }).map((l) => ({ c: 'unlabel' as const, l })), label.map((l) => ({ c: 'relabel' as const, l })),
  fc.constantFrom('dev', 'rep', 'me').map((u) => ({ c: 'assign' as const, u })), fc.constant({ c: 'unassign' as const }),
  fc.constantFrom('v1', 'Q1').map((m) => ({ c: 'milestone' as const, m })), fc.constant({ c: 'remove_milestone' as const }),
  fc.constantFrom('2024-04-01', '2024-04-02').map((d) => ({ c: 'due' as const, d })), fc.constant({ c: 'remove_due_date' as const }),
  fc.constant({ c: 'lock' as const }), fc.constant({ c: 'unlock' as const }), fc.constant({ c: 'confidential' as const }),
  fc.integer({ min: 1, max: 3 }).map((h) => ({ c: 'estimate' as const, h })), fc.constant({ c: 'remove_estimate' as const }),
  fc.integer({ min: 1, max: 3 }).map((h) => ({ c: 'spend' as const, h })), fc.constant({ c: 'remove_time_spent' as const }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('note' as const), user: fc.constantFrom('pla' as const, 'gus' as const), cmds: fc.array(cmd, { minLength: 1, maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('put' as const), title: fc.option(fc.constantFrom(...TITLES), { nil: undefined }), stateEvent: fc.option(fc.constantFrom('close' as const, 'reopen' as const), { nil: undefined }) }) },
);

function text(c: Cmd): string {
  const ref = (l: string) => (l.includes(' ') ? `~"${l}"` : `~${l}`);
  switch (c.c) {
    case 'title': return `/title ${c.t}`;
    case 'label': return `/label ${ref(c.l)}`;
    case 'unlabel': return c.l === null ? '/unlabel' : `/unlabel ${ref(c.l)}`;
    case 'relabel': return `/relabel ${ref(c.l)}`;
    case 'assign': return c.u === 'me' ? '/assign me' : `/assign @${c.u}`;
    case 'milestone': return `/milestone %${c.m}`;
    case 'due': return `/due ${c.d}`;
    case 'estimate': return `/estimate ${c.h}h`;
    case 'spend': return `/spend ${c.h}h`;
    default: return `/${c.c}`;
  }
}

interface Model {
  state: 'opened' | 'closed';
  title: string;
  labels: string[];
  assignees: string[];
  milestone: string | null;
  due: string | null;
  locked: boolean;
  confidential: boolean;
  estimate: number;
  spent: number;
  notes: string[];
  stateEvents: string[];
  labelEvents: string[];
  milestoneEvents: string[];
}

const MONTHS = ['January', 'February', 'March', 'April'];
const long = (d: string) => `${MONTHS[Number(d.slice(5, 7)) - 1]} ${Number(d.slice(8))}, ${d.slice(0, 4)}`;

interface Params {
  state_event?: 'close' | 'reopen';
  title?: string;
  label_ids?: string[];
  add?: string[];
  remove?: string[];
  assignees?: string[];
  milestone?: string | null;
  due?: string | null;
  locked?: boolean;
  confidential?: boolean;
  estimate?: number;
  spend?: number | 'reset';
}

/** GitLab's rules for one note: each command's condition against the issue before the note; its update params. */
function interpret(m: Model, user: 'pla' | 'gus', cmds: Cmd[]): { p: Params; unavailable: number } {
  const admin = user === 'pla';
  const update = true; // the Planner, and the Guest who wrote the issue
  const p: Params = {};
  let unavailable = 0;
  const known = (l: string) => LABELS.includes(l);
  for (const c of cmds) {
    let ok = true;
    switch (c.c) {
      case 'close': ok = m.state === 'opened' && update; if (ok) p.state_event = 'close'; break;
      case 'reopen': ok = m.state === 'closed' && update; if (ok) p.state_event = 'reopen'; break;
      case 'title': ok = update; if (ok) p.title = c.t; break;
      case 'label': ok = admin; if (ok && known(c.l)) p.add = [...new Set([...(p.add ?? []), c.l])]; break;
      case 'unlabel':
        ok = admin && m.labels.length > 0;
        if (ok && c.l === null) p.label_ids = [];
        else if (ok && known(c.l!)) p.remove = [...new Set([...(p.remove ?? []), c.l!])];
        break;
      case 'relabel': ok = admin && m.labels.length > 0; if (ok && known(c.l)) p.label_ids = [...new Set([...(p.label_ids ?? []), c.l])]; break;
      case 'assign': ok = admin; if (ok) p.assignees = [c.u === 'me' ? user : c.u]; break;
      case 'unassign': ok = admin && m.assignees.length > 0; if (ok) p.assignees = []; break;
      case 'milestone': ok = admin; if (ok) p.milestone = c.m; break;
      case 'remove_milestone': ok = admin && m.milestone !== null; if (ok) p.milestone = null; break;
      case 'due': ok = admin; if (ok) p.due = c.d; break;
      case 'remove_due_date': ok = admin && m.due !== null; if (ok) p.due = null; break;
      case 'lock': ok = admin && !m.locked; if (ok) p.locked = true; break;
      case 'unlock': ok = admin && m.locked; if (ok) p.locked = false; break;
      case 'confidential': ok = admin && !m.confidential; if (ok) p.confidential = true; break;
      case 'estimate': ok = admin; if (ok) p.estimate = c.h * 3600; break;
      case 'remove_estimate': ok = admin; if (ok) p.estimate = 0; break;
      case 'spend': ok = admin; if (ok) p.spend = c.h * 3600; break;
      case 'remove_time_spent': ok = admin; if (ok) p.spend = 'reset'; break;
    }
    if (!ok) unavailable++;
  }
  return { p, unavailable };
}

/** Issues::UpdateService: the state event; title, time tracking, lock; due date, milestone, labels; assignees, confidentiality. */
function applyParams(m: Model, p: Params, user: string): void {
  const before = { ...m, labels: [...m.labels], assignees: [...m.assignees] };
  if (p.state_event === 'close' && m.state === 'opened') m.state = 'closed';
  if (p.state_event === 'reopen' && m.state === 'closed') m.state = 'opened';
  if (p.title !== undefined) m.title = p.title;
  let labels = p.label_ids !== undefined ? [...p.label_ids] : m.labels;
  if (p.add) labels = [...new Set([...labels, ...p.add])];
  if (p.remove) labels = labels.filter((l) => !p.remove!.includes(l));
  m.labels = labels;
  if (p.assignees !== undefined) m.assignees = p.assignees;
  if (p.milestone !== undefined) m.milestone = p.milestone;
  if (p.due !== undefined) m.due = p.due;
  if (p.locked !== undefined) m.locked = p.locked;
  if (p.confidential !== undefined) m.confidential = p.confidential;
  if (p.estimate !== undefined) m.estimate = p.estimate;
  if (p.spend !== undefined) m.spent = p.spend === 'reset' ? 0 : m.spent + p.spend;
  void user;
  if (before.state !== m.state) m.stateEvents.push(m.state === 'closed' ? 'closed' : 'reopened');
  if (before.title !== m.title) m.notes.push(`title:${before.title}>${m.title}`);
  if (before.estimate !== m.estimate) m.notes.push(m.estimate === 0 ? 'removed time estimate' : `changed time estimate to ${m.estimate / 3600}h`);
  if (p.spend !== undefined && !(p.spend === 'reset' && before.spent === 0)) m.notes.push(p.spend === 'reset' ? 'removed time spent' : `added ${p.spend / 3600}h of time spent`);
  if (before.locked !== m.locked) m.notes.push(`${m.locked ? 'locked' : 'unlocked'} the discussion in this issue`);
  if (before.due !== m.due) m.notes.push(m.due === null ? 'removed due date' : `changed due date to ${long(m.due)}`);
  if (before.milestone !== m.milestone) m.milestoneEvents.push(m.milestone !== null ? `add ${m.milestone}` : `remove ${before.milestone}`);
  for (const l of m.labels) if (!before.labels.includes(l)) m.labelEvents.push(`add ${l}`);
  for (const l of before.labels) if (!m.labels.includes(l)) m.labelEvents.push(`remove ${l}`);
  const added = m.assignees.filter((a) => !before.assignees.includes(a));
  const removed = before.assignees.filter((a) => !m.assignees.includes(a));
  const parts = [...(added.length ? [`assigned to ${added.map((a) => `@${a}`).join(' and ')}`] : []), ...(removed.length ? [`unassigned ${removed.map((a) => `@${a}`).join(' and ')}`] : [])];
  if (parts.length) m.notes.push(parts.join(' and '));
  if (before.confidential !== m.confidential) m.notes.push('made the issue confidential');
}

/** A title note, checked by what its markup says: the old title with insertions dropped, the new with deletions dropped. */
function titleNote(body: string): string | null {
  const m = /^changed title from \*\*(.*)\*\* to \*\*(.*)\*\*$/s.exec(body);
  if (!m) return null;
  const old = m[1]!.replace(/\{-(.*?)-\}/g, '$1');
  const now = m[2]!.replace(/\{\+(.*?)\+\}/g, '$1');
  return m[1]!.includes('{+') || m[2]!.includes('{-') ? 'bad markup' : `title:${old}>${now}`;
}

describe('quick actions against a plain model', () => {
  let emulator: Emulator;
  let seeded: Snapshot;
  beforeAll(async () => {
    emulator = await createEmulator({ fixture: FIXTURE, clock: { now: NOW, frozen: true } });
    seeded = emulator.snapshot();
  });

  it('gives the final state, notes and events the model predicts', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      emulator.restore(seeded);
      const m: Model = {
        state: 'opened', title: 'Alpha', labels: [], assignees: [], milestone: null, due: null, locked: false, confidential: false, estimate: 0, spent: 0,
        notes: [], stateEvents: [], labelEvents: [], milestoneEvents: [],
      };
      for (const s of steps) {
        if (s.kind === 'note') {
          const { p } = interpret(m, s.user, s.cmds);
          const r = await postNote(emulator, s.user, ['Comment', ...s.cmds.map(text)].join('\n'));
          expect(r.status).toBe(201);
          expect(r.body.body).toBe('Comment');
          // What ran shows in commands_changes (the model's params, label and user names as ids).
          expect(Object.keys(r.body.commands_changes).length > 0).toBe(Object.keys(p).length > 0);
          applyParams(m, p, s.user);
        } else {
          if (s.title === undefined && s.stateEvent === undefined) continue;
          const res = await apiCall(emulator, '/projects/acme%2Fapp/issues/1', { method: 'PUT', token: 'planner-token', json: { title: s.title, state_event: s.stateEvent } });
          expect(res.status).toBe(200);
          applyParams(m, { title: s.title, state_event: s.stateEvent }, 'pla');
        }
      }
      const issue = issueRecord(emulator, PATH, 1);
      const get = async (path: string) => (await apiCall(emulator, `/projects/acme%2Fapp/issues/1${path}`, { token: 'root-token' })).json();
      const api = await get('');
      expect({
        state: api.state, title: api.title, labels: [...api.labels].sort(), assignees: api.assignees.map((a: { username: string }) => a.username), milestone: api.milestone?.title ?? null,
        due: api.due_date, locked: api.discussion_locked ?? false, confidential: api.confidential, estimate: issue.timeEstimate, spent: issue.totalTimeSpent,
      }).toEqual({
        state: m.state, title: m.title, labels: [...m.labels].sort(), assignees: m.assignees, milestone: m.milestone, due: m.due, locked: m.locked,
        confidential: m.confidential, estimate: m.estimate, spent: m.spent,
      });
      const all = notesOf(emulator, 'Issue', issue.id);
      expect(all.filter((n) => n.system).map((n) => titleNote(n.body) ?? n.body)).toEqual(m.notes);
      expect(all.filter((n) => !n.system).map((n) => n.body)).toEqual(steps.filter((s) => s.kind === 'note').map(() => 'Comment'));
      expect((await get('/resource_state_events?per_page=100')).map((e: { state: string }) => e.state)).toEqual(m.stateEvents);
      expect((await get('/resource_label_events?per_page=100')).map((e: { action: string; label: { name: string } }) => `${e.action} ${e.label.name}`)).toEqual(m.labelEvents);
      expect((await get('/resource_milestone_events?per_page=100')).map((e: { action: string; milestone: { title: string } }) => `${e.action} ${e.milestone.title}`)).toEqual(m.milestoneEvents);
    }), { numRuns: 150 });
  });
});

describe('quick actions on arbitrary text', () => {
  let emulator: Emulator;
  let seeded: Snapshot;
  beforeAll(async () => {
    emulator = await createEmulator({ fixture: FIXTURE, clock: { now: NOW, frozen: true } });
    seeded = emulator.snapshot();
  });
  const token = fc.constantFrom(
    '/close', '/reopen', '/label', '/unlabel', '/relabel', '/assign', '/unassign', '/spend', '/estimate', '/due', '/title', '/weight', '/duplicate', '/todo', '/done',
    '/award', '/milestone', '/remove_milestone', '/lock', '/confidential', '/merge', '/promote', '/epic', '/subscribe', '~bug', '~"two words"', '~', '@dev', '@nobody', 'me',
    '1h', '-5h', '0', 'abc', '2024-01-01', '2099-01-01', 'tomorrow', '#1', '#2', 'acme/app#1', ':+1:', '%v1', '%"Q1"', '```', '`', '>>>', '<b>', '</b>', '\n', ' ', ',',
  );
  it('never fails but with GitLab’s errors, and leaves the issue consistent', async () => {
    await fc.assert(fc.asyncProperty(fc.array(token, { maxLength: 30 }).map((t) => t.join('')), fc.constantFrom('pla' as const, 'gus' as const, 'out' as const), async (body, user) => {
      emulator.restore(seeded);
      const before = notesOf(emulator, 'Issue', issueRecord(emulator, PATH, 1).id).length;
      const r = await postNote(emulator, user, body);
      // A comment (201), commands alone that ran (202), or GitLab's 400 (blank, or commands that did nothing); the outsider does not see the project.
      expect(r.status).toBe(user === 'out' ? 404 : r.status === 201 ? 201 : r.status === 202 ? 202 : 400);
      if (r.status === 202) expect(Object.keys(r.body)).toEqual(['commands_changes', 'summary']);
      if (r.status >= 400) expect(notesOf(emulator, 'Issue', issueRecord(emulator, PATH, 1).id)).toHaveLength(before);
      const issue = issueRecord(emulator, PATH, 1);
      expect(new Set(issue.labelIds).size).toBe(issue.labelIds.length);
      expect(issue.assigneeIds.length).toBeLessThanOrEqual(1);
      expect(issue.totalTimeSpent).toBeGreaterThanOrEqual(0);
    }), { numRuns: 150 });
  });
});
