// Search (lib/api/search.rb): GET /search, /groups/:id/search and /projects/:id/search, GitLab's
// basic search over the world. Each scope renders its own entity (SCOPE_ENTITY); a scope that
// needs advanced search (commits, wiki blobs, blobs and notes beyond a project) is not offered.
import { bool, str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { defineFamily, group, project, route, type Context, type Family } from '../define.js';
import { issueEntity, type IssueView } from '../issues/index.js';
import { mergeRequestBasic } from '../merge-requests/index.js';
import { milestoneEntity } from '../milestones/index.js';
import { basicProjectDetails } from '../projects/index.js';
import { snippetEntity } from '../snippets/index.js';
import { userBasic } from '../users/index.js';
import { findIssues, findMergeRequests, findMilestones, findNotes, findProjects, findSnippets, findUsers, type Limits, type StateFilter } from './finder.js';
import { noteEntity } from '../notes/index.js';
import { findBlobs } from './blobs.js';

const GLOBAL_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'users'] as const;
const GROUP_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'users'] as const;
const PROJECT_SCOPES = ['issues', 'merge_requests', 'milestones', 'notes', 'blobs', 'users'] as const;
const STATES = ['all', 'opened', 'closed', 'merged'] as const;

/** Entities::IssueBasic: Entities::Issue without what only a single issue's answer carries. */
const ISSUE_ONLY = ['has_tasks', 'task_status', '_links', 'subscribed', 'moved_to_id', 'imported', 'imported_from', 'service_desk_reply_to'];

interface SearchParams {
  search: string;
  scope: string;
  state?: string;
  confidential?: boolean;
}

async function reply(ctx: Context<SearchParams & { ref?: string }>, limits: Limits): Promise<Reply> {
  const { search: q, scope } = ctx.params;
  const state = ctx.params.state as StateFilter;
  const u = { webBase: ctx.webBase };
  const now = ctx.now();
  const context: IssueView['context'] = limits.project ? { kind: 'project', id: limits.project.id } : limits.group ? { kind: 'group', id: limits.group.id } : { kind: 'none' };
  let body: unknown[];
  switch (scope) {
    case 'projects':
      body = ctx.paginate(findProjects(limits, q)).map((p) => basicProjectDetails({ state: ctx.state, viewer: ctx.user, now, webBase: ctx.webBase }, p));
      break;
    case 'issues': {
      const v: IssueView = { state: ctx.state, viewer: ctx.user, now, webBase: ctx.webBase, context };
      body = ctx.paginate(findIssues(limits, q, state, ctx.params.confidential)).map((i) => {
        const e: Record<string, unknown> = issueEntity(v, i);
        for (const k of ISSUE_ONLY) delete e[k];
        return e;
      });
      break;
    }
    case 'merge_requests':
      body = ctx.paginate(findMergeRequests(limits, q, state)).map((mr) =>
        mergeRequestBasic({ state: ctx.state, viewer: ctx.user, now, webBase: ctx.webBase, projectId: limits.project?.id, groupId: limits.group?.id }, mr),
      );
      break;
    case 'milestones':
      body = ctx.paginate(findMilestones(limits, q)).map((m) => milestoneEntity(ctx.state, m, u, now));
      break;
    case 'blobs':
      body = ctx.paginate(await findBlobs(ctx, limits.project!, q, ctx.params.ref));
      break;
    case 'notes':
      body = ctx.paginate(findNotes({ ...limits, project: limits.project! }, q)).map(({ note, iid }) => noteEntity({ state: ctx.state, webBase: ctx.webBase }, note, iid));
      break;
    case 'snippet_titles':
      body = ctx.paginate(findSnippets(limits, q)).map((s) => snippetEntity(ctx.state, s, u, ctx.user));
      break;
    default:
      body = ctx.paginate(findUsers(limits, q)).map((user) => userBasic(user, u));
  }
  return json(body, 200, { 'X-Search-Type': 'basic' });
}

const params = (scopes: readonly string[]) => ({
  search: str().required(),
  scope: str().required().values(scopes),
  state: str().values(STATES),
  confidential: bool(),
});

const routes = [
  route({
    method: 'GET', path: '/search', auth: 'user', paginated: true, params: params(GLOBAL_SCOPES),
    handler: (ctx) => reply(ctx, { state: ctx.state, user: ctx.user!, now: ctx.now() }),
  }),
  ...['/groups/:id/search', '/groups/:id/-/search'].map((path) =>
    route({
      method: 'GET', path, auth: 'user', scope: group(), paginated: true, params: params(GROUP_SCOPES),
      handler: (ctx) => reply(ctx, { state: ctx.state, user: ctx.user!, now: ctx.now(), group: ctx.group }),
    }),
  ),
  ...['/projects/:id/search', '/projects/:id/-/search'].map((path) =>
    route({
      method: 'GET', path, auth: 'user', scope: project(), paginated: true, params: { ...params(PROJECT_SCOPES), ref: str() },
      handler: (ctx) => reply(ctx, { state: ctx.state, user: ctx.user!, now: ctx.now(), project: ctx.project }),
    }),
  ),
];

export const search: Family = defineFamily({ name: 'search', routes });
