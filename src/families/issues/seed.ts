// A fixture's projects' issues (iids follow the order given unless an issue names its own).
import { EmulatorError } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { fixtureProjectPath, projectWhere, type SeedRun } from '../define.js';
import { fixtureUserId } from '../users/index.js';
import { ancestry } from '../../policy/access.js';
import { tget, tvalues } from '../../store/table.js';
import type { Project } from '../../store/state.js';
import type { State } from '../world.js';
import { ISSUE_TYPES, type Issue } from './records.js';
import type { issueSchema, issuesProjectSchema } from './schema.js';
import { createIssue } from './rules.js';
import { putIssue } from './store.js';
import { fixtureMilestoneId, fixtureTime, parseDuration } from '../issuables/index.js';

export type FixtureIssue = Infer<typeof issueSchema>;

export type FixtureIssuesPart = Infer<typeof issuesProjectSchema>;

function fixtureEpic(state: State, project: Project, title: string, where: string): number {
  const ns = tget(state.namespaces, project.namespaceId);
  for (const g of ns && ns.kind === 'group' ? ancestry(state, ns.id) : []) {
    const t = tget(state.epics, g.id);
    if (t) for (const e of tvalues(t)) if (e.title === title) return e.id;
  }
  throw new EmulatorError(`${where} names unknown epic '${title}'`);
}

function fixtureIteration(state: State, project: Project, title: string, where: string): number {
  const ns = tget(state.namespaces, project.namespaceId);
  for (const g of ns && ns.kind === 'group' ? ancestry(state, ns.id) : []) {
    const t = tget(state.iterations, g.id);
    if (t) for (const it of tvalues(t)) if (it.title === title) return it.id;
  }
  throw new EmulatorError(`${where} names unknown iteration '${title}'`);
}

export function seedIssues(s: SeedRun): void {
  const projects = s.fixture.projects ?? [];
  if (!projects.some((p) => p.issues?.length)) return;
  s.update((draft) => {
    for (const p of projects) {
      const project = tget(draft.projects, s.handles.projects[fixtureProjectPath(p)]!.id) as Project;
      (p.issues ?? []).forEach((fi, n) => {
        const where = `${projectWhere(p)}: issue ${n + 1} '${fi.title}'`;
        const state = draft as State;
        const author = tget(state.users, fi.author ? fixtureUserId(state, fi.author, where) : project.creatorId);
        if (!author) throw new EmulatorError(`${where} has no author`);
        if (fi.issue_type && !ISSUE_TYPES.includes(fi.issue_type)) throw new EmulatorError(`${where} has an unknown issue_type '${fi.issue_type}'`);
        const created = fixtureTime(fi.created_at, s.now, where);
        let issue: Issue;
        try {
          issue = createIssue(state, project, { ...author, admin: true }, {
            title: fi.title, description: fi.description, labels: fi.labels, dueDate: fi.due_date ?? null, confidential: fi.confidential,
            discussionLocked: fi.discussion_locked, issueType: fi.issue_type, weight: fi.weight, createdAt: created, iid: fi.iid,
          }, s.now, false)(draft);
        } catch (e) {
          if (e instanceof EmulatorError) throw e;
          throw new EmulatorError(`${where} is invalid: ${(e as Error).message}`);
        }
        const assigneeIds = (fi.assignees ?? []).map((u) => fixtureUserId(state, u, where));
        const closed = fi.state === 'closed';
        const estimate = fi.time_estimate ? parseDuration(fi.time_estimate, true) : 0;
        const spent = fi.time_spent ? parseDuration(fi.time_spent) : 0;
        if (estimate === null || spent === null) throw new EmulatorError(`${where} has an unreadable duration`);
        putIssue(draft, {
          ...issue,
          authorId: author.id,
          assigneeIds,
          milestoneId: fi.milestone ? fixtureMilestoneId(state, project, fi.milestone, where) : null,
          state: closed ? 'closed' : 'opened',
          closedAt: closed ? fixtureTime(fi.closed_at, s.now, where) : null,
          closedById: closed ? (fi.closed_by ? fixtureUserId(state, fi.closed_by, where) : author.id) : null,
          updatedAt: fixtureTime(fi.updated_at, created, where),
          timeEstimate: estimate,
          totalTimeSpent: spent,
          relativePosition: fi.relative_position ?? null,
          weight: fi.weight ?? null,
          epicId: fi.epic !== undefined ? fixtureEpic(state, project, fi.epic, where) : null,
          iterationId: fi.iteration !== undefined ? fixtureIteration(state, project, fi.iteration, where) : null,
          healthStatus: fi.health_status ?? null,
        });
      });
    }
  });
}
