// Issue links (lib/api/issue_links.rb, entities/issue_link.rb, related_issue.rb): an issue's
// linked issues as the caller may read them, one link, and links made and taken back.
import { forbidden, messageError, notFound, recordNotFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { canReadProject, hasProjectRole } from '../../policy/access.js';
import { projectByIdOrPath } from '../../policy/paths.js';
import { ACCESS } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { project, route, type Context } from '../define.js';
import { issueEntity } from './entity.js';
import { canReadIssues, issueVisible, seesConfidential } from './finder.js';
import { createLink, linkById, linkedFrom, linksOf, linkTimes, removeLink } from './links.js';
import type { IssueLink } from './records.js';
import { view, visibleIssue } from './routes.js';
import { issueById, issueByIid } from './store.js';

/** Entities::IssueLink: both issues (IssueBasic) and the link's type. */
function linkEntity(ctx: Context<unknown>, link: IssueLink) {
  const v = view(ctx, { kind: 'project', id: ctx.project.id });
  const source = issueById(ctx.state, link.sourceId);
  const target = issueById(ctx.state, link.targetId);
  return { source_issue: source ? issueEntity(v, source) : null, target_issue: target ? issueEntity(v, target) : null, link_type: link.linkType };
}

export const issueLinkRoutes = [
  route({
    method: 'GET', path: '/projects/:id/issues/:issue_iid/links', cacheable: true, scope: project(canReadIssues), params: { issue_iid: int().required() },
    handler: (ctx): Reply => {
      const issue = visibleIssue(ctx);
      const v = view(ctx, { kind: 'project', id: ctx.project.id });
      const out: unknown[] = [];
      for (const link of linksOf(ctx.state, issue.id)) {
        const { otherId, type } = linkedFrom(link, issue.id);
        const other = issueById(ctx.state, otherId);
        const p = other ? tget(ctx.state.projects, other.projectId) : undefined;
        if (!other || !p || p.pendingDelete || !canReadProject(ctx.state, ctx.user, p, ctx.now()) || !canReadIssues(ctx.state, ctx.user, p, ctx.now())) continue;
        if (!issueVisible(ctx.state, ctx.user, other, seesConfidential(ctx.state, ctx.user, p, ctx.now()))) continue;
        out.push({ ...issueEntity(v, other), issue_link_id: link.id, link_type: type, ...linkTimes(link) });
      }
      return json(out);
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/issues/:issue_iid/links/:issue_link_id', cacheable: true, scope: project(canReadIssues), params: { issue_iid: int().required(), issue_link_id: int().required() },
    handler: (ctx): Reply => {
      const issue = visibleIssue(ctx);
      const link = linkById(ctx.state, ctx.params.issue_link_id);
      if (!link || (link.sourceId !== issue.id && link.targetId !== issue.id)) throw recordNotFound();
      return json(linkEntity(ctx, link));
    },
  }),
  route({
    method: 'POST', path: '/projects/:id/issues/:issue_iid/links', auth: 'user', scope: project(canReadIssues),
    params: {
      issue_iid: int().required(), target_project_id: str().required(), target_issue_iid: str().required(),
      link_type: str().values(['relates_to', 'blocks', 'is_blocked_by'] as const).default('relates_to'),
    },
    handler: (ctx): Reply => {
      const source = visibleIssue(ctx);
      const user = ctx.user!;
      const now = ctx.now();
      if (!hasProjectRole(ctx.state, user, ctx.project, ACCESS.guest, now)) throw forbidden();
      const targetProject = projectByIdOrPath(ctx.state, ctx.params.target_project_id);
      if (!targetProject || targetProject.pendingDelete || !canReadProject(ctx.state, user, targetProject, now)) throw notFound('Project');
      const target = /^\d+$/.test(ctx.params.target_issue_iid) ? issueByIid(ctx.state, targetProject.id, Number(ctx.params.target_issue_iid)) : undefined;
      if (!target || !canReadIssues(ctx.state, user, targetProject, now) || !issueVisible(ctx.state, user, target, seesConfidential(ctx.state, user, targetProject, now))) throw recordNotFound();
      if (!hasProjectRole(ctx.state, user, targetProject, ACCESS.guest, now)) {
        throw messageError(404, 'No matching issue found. Make sure that you are adding a valid issue URL.');
      }
      if (ctx.params.link_type !== 'relates_to' && ctx.state.instance.tier === 'free') throw messageError(403, 'Blocked issues not available for current license');
      const link = ctx.update(createLink(ctx.state, source, target, ctx.params.link_type, now, user.id));
      return created(linkEntity(ctx, link));
    },
  }),
  route({
    method: 'DELETE', path: '/projects/:id/issues/:issue_iid/links/:issue_link_id', auth: 'user', scope: project(canReadIssues), params: { issue_iid: int().required(), issue_link_id: int().required() },
    handler: (ctx): Reply => {
      const issue = visibleIssue(ctx);
      const link = linkById(ctx.state, ctx.params.issue_link_id);
      if (!link || (link.sourceId !== issue.id && link.targetId !== issue.id)) throw recordNotFound();
      if (!hasProjectRole(ctx.state, ctx.user, ctx.project, ACCESS.guest, ctx.now())) throw forbidden();
      const body = linkEntity(ctx, link);
      ctx.update(removeLink(link, { userId: ctx.user!.id, now: ctx.now() }));
      return json(body);
    },
  }),
];
