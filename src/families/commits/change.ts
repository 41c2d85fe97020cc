// POST /projects/:id/repository/commits/:sha/cherry_pick and /revert (lib/api/commits.rb).
import { branchTip, canPushToBranch, canReadCode, changeCommit, refsOf, repoView, repositoryEnabled, resolveCommit, type ChangeKind } from '../repositories/index.js';
import { commitEntity } from './entity.js';
import { projectWebUrl } from '../projects/index.js';
import { forbidden, notFound, unauthorized } from '../../core/errors.js';
import { bool, str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { project, route, type Context } from '../define.js';

const READ = project(repositoryEnabled, canReadCode);

type ChangeParams = { sha: string; branch: string; dry_run: boolean; message?: string };

async function change(ctx: Context<ChangeParams>, kind: ChangeKind): Promise<Reply> {
  const p = ctx.params;
  const user = ctx.user;
  if (!user) throw unauthorized();
  // authorize_push_to_branch!, then the commit, then find_branch!.
  if (!canPushToBranch(ctx.state, user, ctx.project, p.branch, ctx.now())) throw forbidden('You are not allowed to push into this branch');
  const repo = ctx.env.git.repository(ctx.project.id);
  const sha = await resolveCommit(repo, repoView(ctx.state, ctx.project), p.sha);
  if (!sha) throw notFound('Commit');
  if (branchTip(refsOf(ctx.state, ctx.project.id), p.branch) === undefined) throw notFound('Branch');
  const outcome = await changeCommit(repo, ctx.state, ctx.project, user, { kind, sha, branch: p.branch, message: p.message, dryRun: p.dry_run, now: ctx.now() });
  if (!outcome) return json({ dry_run: 'success' });
  ctx.update(outcome.recipe);
  return created(commitEntity(projectWebUrl(ctx.state, ctx.project, ctx), { sha: outcome.sha, commit: await repo.readCommit(outcome.sha) }));
}

export const changeRoutes = [
  route({
    method: 'POST',
    path: '/projects/:id/repository/commits/:sha/cherry_pick',
    auth: 'user',
    scope: READ,
    params: { sha: str().required(), branch: str().required().notBlank(), dry_run: bool().default(false), message: str() },
    handler: (ctx) => change(ctx, 'cherry-pick'),
  }),
  route({
    method: 'POST',
    path: '/projects/:id/repository/commits/:sha/revert',
    auth: 'user',
    scope: READ,
    params: { sha: str().required(), branch: str().required().notBlank(), dry_run: bool().default(false) },
    handler: (ctx) => change(ctx, 'revert'),
  }),
];
