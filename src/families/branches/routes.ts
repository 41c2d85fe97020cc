// Branches: GET/POST /projects/:id/repository/branches, GET/HEAD/DELETE .../branches/:branch
// (lib/api/branches.rb, app/finders/branches_finder.rb, app/services/branches/*).
import {
  branchTip,
  branchNames,
  canPushCode,
  canPushToBranch,
  canReadCode,
  createBranch,
  defaultBranchName,
  deleteBranch,
  developersCan,
  isProtected,
  isValidBranchName,
  refsOf,
  repoView,
  repositoryEnabled,
  type RepoView,
  type Repository,
} from '../repositories/index.js';
import { branchEntity } from './entity.js';
import { tget } from '../../store/table.js';
import { branchRefnameInvalid, regexInvalid } from './errors.js';
import { projectWebUrl } from '../projects/index.js';
import { reachable } from '../../git/history.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { userPattern, type UserPattern } from '../../policy/pattern.js';
import { notFound } from '../../core/errors.js';
import type { Keyset } from '../../http/pagination.js';
import { str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { project, route, type Context } from '../define.js';
import type { User } from '../../store/state.js';

/** The `before` of every branch route: require_repository_enabled!, then read_code. */
const READ = project(repositoryEnabled, canReadCode);
/** Creating and deleting a branch also need push_code. */
const PUSH = project(repositoryEnabled, canReadCode, canPushCode);

/**
 * With `page_token`, Gitaly's keyset: the branches after the one it names (by name, whatever the
 * order), `per_page` of them and at least one, with no paging headers.
 */
const BRANCH_KEYSET: Keyset<string> = {
  asked: (input) => input.page_token !== undefined,
  cursor: ['page_token'],
  headers: 'none',
  page: (names, input, { perPageParam }) => ({ items: names.filter((n) => n > String(input.page_token)).slice(0, Math.min(Math.max(perPageParam, 1), 100)) }),
};

/** The caller of a PUSH route: push_code refuses anonymous callers, so there is one. */
function pusher(ctx: Context<unknown>): User {
  if (!ctx.user) throw new Error('a push_code route reached its handler without a user');
  return ctx.user;
}

/** find_branch!: a name git would refuse is 400, an unknown one 404. */
function findBranch(refs: Repository, name: string): string {
  if (!isValidBranchName(name)) throw branchRefnameInvalid();
  const sha = branchTip(refs, name);
  if (sha === undefined) throw notFound('Branch');
  return sha;
}

/** Entities::Branch of each name, as the project and its refs stand in `view`. */
async function render(ctx: Context<unknown>, { project, refs }: RepoView, repo: RepositoryObjects, names: readonly string[]) {
  const head = defaultBranchName(project);
  const headSha = branchTip(refs, head);
  const merged = headSha ? await reachable(repo, headSha) : new Set<string>();
  const web = projectWebUrl(ctx.state, project, ctx);
  const out = [];
  for (const name of names) {
    const sha = branchTip(refs, name);
    if (sha === undefined) throw new Error(`branch '${name}' went while it was rendered`);
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
    scope: READ,
    paginated: { keyset: BRANCH_KEYSET },
    params: {
      search: str(),
      regex: str(),
      sort: str().values(['name_asc', 'updated_asc', 'updated_desc']),
      page_token: str(),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const view = repoView(ctx.state, ctx.project);
      const repo = ctx.env.git.repository(ctx.project.id);
      // BranchesFinder#by_regex: Gitlab::UntrustedRegexp (RE2), matched anywhere in the name.
      let re: UserPattern | null = null;
      if (p.regex !== undefined) {
        re = userPattern(p.regex);
        if (!re) throw regexInvalid();
      }
      const { refs } = view;
      let names = [...branchNames(refs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (p.search) names = names.filter((n) => matchesSearch(n, p.search!));
      if (re) names = names.filter((n) => re!.test(n));
      if (p.sort === 'updated_asc' || p.sort === 'updated_desc') {
        const when = new Map<string, number>();
        for (const n of names) when.set(n, (await repo.readCommit(branchTip(refs, n)!)).committer.timestamp);
        const dir = p.sort === 'updated_asc' ? 1 : -1;
        names = names.sort((a, b) => (when.get(a)! - when.get(b)!) * dir || (a < b ? -1 : 1));
      }
      return json(await render(ctx, view, repo, ctx.paginate(names)));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/branches/:branch',
    cacheable: true,
    scope: READ,
    params: { branch: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const view = repoView(ctx.state, ctx.project);
      if (ctx.request.method === 'HEAD') return branchTip(view.refs, ctx.params.branch) !== undefined ? noContent() : { status: 404 };
      findBranch(view.refs, ctx.params.branch);
      return json((await render(ctx, view, ctx.env.git.repository(ctx.project.id), [ctx.params.branch]))[0]);
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/repository/branches',
    scope: PUSH,
    params: { branch: str().required().notBlank(), ref: str().required().notBlank() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const repo = ctx.env.git.repository(ctx.project.id);
      const outcome = await createBranch(repo, repoView(ctx.state, ctx.project), pusher(ctx), p.branch, p.ref, ctx.now());
      ctx.update(outcome.recipe);
      const made = repoView(ctx.state, tget(ctx.state.projects, ctx.project.id) ?? ctx.project);
      return created((await render(ctx, made, repo, [p.branch]))[0]);
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/repository/branches/:branch',
    scope: PUSH,
    params: { branch: str().required().notBlank() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const repo = ctx.env.git.repository(ctx.project.id);
      const sha = findBranch(refsOf(ctx.state, ctx.project.id), p.branch);
      // destroy_conditionally! compares If-Unmodified-Since with the tip's authored date.
      checkUnmodifiedSince(ctx, (await repo.readCommit(sha)).author.timestamp * 1000);
      ctx.update(deleteBranch(ctx.state, ctx.project, pusher(ctx), p.branch, ctx.now()));
      return noContent();
    },
  }),
];
