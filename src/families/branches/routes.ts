// Branches: GET/POST /projects/:id/repository/branches, GET/HEAD/DELETE .../branches/:branch
// (lib/api/branches.rb, app/finders/branches_finder.rb, app/services/branches/*).
import { createBranch, deleteBranch, refsOf, repoView, type Repository } from '../repositories/index.js';
import {
  canPushCode,
  canPushToBranch,
  canReadCode,
  defaultBranchName,
  developersCan,
  isProtected,
  isValidBranchName,
} from '../repositories/index.js';
import { branchEntity } from './entity.js';
import { projectWebUrl } from '../projects/index.js';
import { reachable } from '../../git/history.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import type { Context } from '../define.js';
import { customError, forbidden, notFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { findProject } from '../../http/resolve.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { route } from '../define.js';
import type { Project } from '../../store/state.js';

/** The `before` of every branch route: require_repository_enabled!, then read_code. */
function readable(ctx: Context<unknown>, id: string): { project: Project; repo: RepositoryObjects } {
  const project = findProject(ctx, id);
  if (project.features.repository === 'disabled') throw notFound();
  if (!canReadCode(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
  return { project, repo: ctx.env.git.repository(project.id) };
}

/** find_branch!: a name git would refuse is 400, an unknown one 404. */
function findBranch(refs: Repository, name: string): string {
  if (!isValidBranchName(name)) throw customError(400, 'The branch refname is invalid');
  const sha = Object.hasOwn(refs.branches, name) ? refs.branches[name] : undefined;
  if (sha === undefined) throw notFound('Branch');
  return sha;
}

async function render(ctx: Context<unknown>, project: Project, repo: RepositoryObjects, names: readonly string[]) {
  const refs = refsOf(ctx.state, project.id);
  const { branches } = refs;
  const head = defaultBranchName(project);
  const headSha = branches[head];
  const merged = headSha ? await reachable(repo, headSha) : new Set<string>();
  const web = projectWebUrl(ctx.state, project, ctx);
  const out = [];
  for (const name of names) {
    const sha = branches[name]!;
    out.push(
      branchEntity(web, {
        name,
        commit: { sha, commit: await repo.readCommit(sha) },
        merged: sha !== headSha && merged.has(sha),
        protected: isProtected(refs, name),
        developersCanPush: developersCan(refs, name, 'push'),
        developersCanMerge: developersCan(refs, name, 'merge'),
        canPush: canPushToBranch(ctx.state, ctx.user, project, name, ctx.now()),
        default: name === head,
      }),
    );
  }
  return out;
}

/** BranchesFinder#filter_by_name: `^term` begins, `term$` ends, else contains; any case. */
function matchesSearch(name: string, search: string): boolean {
  const n = name.toLowerCase();
  const s = search.toLowerCase();
  if (s.startsWith('^')) return n.startsWith(s.slice(1));
  if (s.endsWith('$')) return n.endsWith(s.slice(0, -1));
  return n.includes(s);
}

export const branchRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/branches',
    jobToken: true,
    cacheable: true,
    params: {
      id: str().required(),
      search: str(),
      regex: str(),
      sort: str().values(['name_asc', 'updated_asc', 'updated_desc']),
      page_token: str(),
      page: int(),
      per_page: int(),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const { project, repo } = readable(ctx, p.id);
      let re: RegExp | null = null;
      if (p.regex !== undefined) {
        try {
          re = new RegExp(p.regex);
        } catch {
          throw customError(400, 'Regex is invalid');
        }
      }
      const { branches } = refsOf(ctx.state, project.id);
      let names = Object.keys(branches).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (p.search) names = names.filter((n) => matchesSearch(n, p.search!));
      if (re) names = names.filter((n) => re!.test(n));
      if (p.sort === 'updated_asc' || p.sort === 'updated_desc') {
        const when = new Map<string, number>();
        for (const n of names) when.set(n, (await repo.readCommit(branches[n]!)).committer.timestamp);
        const dir = p.sort === 'updated_asc' ? 1 : -1;
        names = names.sort((a, b) => (when.get(a)! - when.get(b)!) * dir || (a < b ? -1 : 1));
      }
      // With page_token, Gitaly's keyset: the branches after the named one, no offset headers.
      if (p.page_token !== undefined) {
        const rest = names.filter((n) => n > p.page_token!);
        return json(await render(ctx, project, repo, rest.slice(0, Math.min(Math.max(p.per_page ?? 20, 1), 100))));
      }
      return json(await render(ctx, project, repo, ctx.paginate(names)));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/branches/:branch',
    cacheable: true,
    params: { id: str().required(), branch: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const { project, repo } = readable(ctx, ctx.params.id);
      if (ctx.request.method === 'HEAD') {
        return Object.hasOwn(refsOf(ctx.state, project.id).branches, ctx.params.branch) ? noContent() : { status: 404 };
      }
      findBranch(refsOf(ctx.state, project.id), ctx.params.branch);
      return json((await render(ctx, project, repo, [ctx.params.branch]))[0]);
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/repository/branches',
    params: { id: str().required(), branch: str().required().notBlank(), ref: str().required().notBlank() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const { project, repo } = readable(ctx, p.id);
      if (!ctx.user || !canPushCode(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
      const outcome = await createBranch(repo, repoView(ctx.state, project), ctx.user, p.branch, p.ref, ctx.now());
      ctx.update(outcome.recipe);
      return created((await render(ctx, findProject(ctx, String(project.id)), repo, [p.branch]))[0]);
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/repository/branches/:branch',
    params: { id: str().required(), branch: str().required().notBlank() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const { project, repo } = readable(ctx, p.id);
      if (!ctx.user || !canPushCode(ctx.state, ctx.user, project, ctx.now())) throw forbidden();
      const sha = findBranch(refsOf(ctx.state, project.id), p.branch);
      // destroy_conditionally! compares If-Unmodified-Since with the tip's authored date.
      checkUnmodifiedSince(ctx, (await repo.readCommit(sha)).author.timestamp * 1000);
      ctx.update(deleteBranch(ctx.state, project, ctx.user, p.branch, ctx.now()));
      return noContent();
    },
  }),
];
