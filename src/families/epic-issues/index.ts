// An epic's issues (ee/lib/api/epic_issues.rb, EpicIssues::CreateService and DestroyService): list
// them, add an issue the caller can read (of any group, as GitLab now allows), take one off. An issue has at most one epic,
// so its link to the epic is named by the issue's id (`epic_issue_id`).
import { forbidden, messageError, recordNotFound } from '../../core/errors.js';
import { int } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { canReadProject, hasGroupRole } from '../../policy/access.js';
import { tget, tvalues } from '../../store/table.js';
import { ACCESS, type User } from '../../store/state.js';
import { defineFamily, group, route, type Context, type Family } from '../define.js';
import { epicByIid, epicEntity, epicVisible, type Epic } from '../epics/index.js';
import { canReadIssues, issueById, issueEntity, issueVisible, projectIssues, putIssue, seesConfidential, type Issue, type IssueView } from '../issues/index.js';
import type { State } from '../world.js';

/** `admin_epic_issue`: Guests and above of the epic's group may link issues they can read (the issue's `admin_issue_relation`). */
const canLinkIssues = (state: State, user: User | null, epic: Epic, now: number) => {
  const g = tget(state.namespaces, epic.groupId);
  return !!g && hasGroupRole(state, user, g, ACCESS.guest, now);
};

function epicOf(ctx: Context<{ epic_iid: number }>): Epic {
  const e = epicByIid(ctx.state, ctx.group.id, ctx.params.epic_iid);
  if (!e || !epicVisible(ctx.state, ctx.user, e, ctx.now())) throw recordNotFound();
  return e;
}

function readable(ctx: Context<unknown>, issue: Issue): boolean {
  const project = tget(ctx.state.projects, issue.projectId);
  if (!project || !canReadProject(ctx.state, ctx.user, project, ctx.now()) || !canReadIssues(ctx.state, ctx.user, project, ctx.now())) return false;
  return issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, project, ctx.now()));
}

const view = (ctx: Context<unknown>, groupId: number): IssueView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase, context: { kind: 'group', id: groupId } });

/** Entities::EpicIssue: the issue, with its link. */
const epicIssueEntity = (ctx: Context<unknown>, issue: Issue, groupId: number) => ({ ...issueEntity(view(ctx, groupId), issue), epic_issue_id: issue.id, relative_position: null });

/** Entities::EpicIssueLink. */
const linkEntity = (ctx: Context<unknown>, epic: Epic, issue: Issue) => ({
  id: issue.id,
  relative_position: null,
  epic: epicEntity(ctx.state, epic, ctx, ctx.user, { contextGroupId: epic.groupId }),
  issue: issueEntity(view(ctx, epic.groupId), issue),
});

/** The epic's issues the caller may read, in the order they were made. */
function epicIssues(ctx: Context<unknown>, epic: Epic): Issue[] {
  const out: Issue[] = [];
  for (const p of tvalues(ctx.state.projects)) {
    for (const i of projectIssues(ctx.state, p.id)) if (i.epicId === epic.id && readable(ctx, i)) out.push(i);
  }
  return out.sort((a, b) => a.id - b.id);
}

const BASE = '/groups/:id/epics/:epic_iid/issues';

const routes = [
  route({
    method: 'GET', path: BASE, tier: 'premium', auth: 'user', scope: group(), paginated: true, params: { epic_iid: int().required() },
    handler: (ctx): Reply => {
      const epic = epicOf(ctx);
      return json(ctx.paginate(epicIssues(ctx, epic)).map((i) => epicIssueEntity(ctx, i, ctx.group.id)));
    },
  }),
  route({
    method: 'POST', path: `${BASE}/:issue_id`, tier: 'premium', auth: 'user', scope: group(), params: { epic_iid: int().required(), issue_id: int().required() },
    handler: (ctx): Reply => {
      const epic = epicOf(ctx);
      if (!canLinkIssues(ctx.state, ctx.user, epic, ctx.now())) throw forbidden();
      const issue = issueById(ctx.state, ctx.params.issue_id);
      if (!issue) throw recordNotFound();
      // IssuableLinks::CreateService: an issue the caller cannot read is no matching issue (any group's may be added).
      if (!readable(ctx, issue)) throw messageError(404, 'No matching issue found. Make sure that you are adding a valid issue URL.');
      if (issue.epicId === epic.id) throw messageError(409, 'Issue(s) already assigned');
      const linked = ctx.update((draft) => {
        const next = { ...issue, epicId: epic.id };
        putIssue(draft, next);
        return next;
      });
      return created(linkEntity(ctx, epic, linked));
    },
  }),
  route({
    method: 'DELETE', path: `${BASE}/:epic_issue_id`, tier: 'premium', auth: 'user', scope: group(), params: { epic_iid: int().required(), epic_issue_id: int().required() },
    handler: (ctx): Reply => {
      const epic = epicOf(ctx);
      if (!canLinkIssues(ctx.state, ctx.user, epic, ctx.now())) throw forbidden();
      const issue = issueById(ctx.state, ctx.params.epic_issue_id);
      if (!issue || issue.epicId !== epic.id || !readable(ctx, issue)) throw recordNotFound();
      const link = linkEntity(ctx, epic, issue);
      ctx.update((draft) => putIssue(draft, { ...issue, epicId: null }));
      return json({ ...link, issue: { ...link.issue, epic_iid: null, epic: null } });
    },
  }),
];

export const epicIssuesFamily: Family = defineFamily({ name: 'epic-issues', routes });
