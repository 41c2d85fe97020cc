// Reading history around commits: compare, merge_base and contributors (lib/api/repositories.rb)
// and a commit's diff, refs, signature and sequence (lib/api/commits.rb).
import { branchEntries, canReadCode, defaultBranchName, isEmptyRepository, refsOf, tagEntries, repoView, repositoryEnabled, resolveCommit } from '../repositories/index.js';
import { basicRef, commitEntity, contributorEntity, diffEntity } from './entity.js';
import { projectWebUrl } from '../projects/index.js';
import { log, reachable } from '../../git/history.js';
import { commitsBetween, mergeBase } from '../../git/merge-base.js';
import { treeDiffs, type FileDiff } from '../../git/patch.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { messageError, notFound } from '../../core/errors.js';
import { arr, bool, int, str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { project, route, type Context } from '../define.js';

const READ = project(repositoryEnabled, canReadCode);

/** The `unidiff` option: each diff with git's `---`/`+++` header lines. */
export function withHeaders(d: FileDiff): FileDiff {
  if (d.diff === '' || d.diff.startsWith('Binary files')) return d;
  const a = d.newFile ? '/dev/null' : `a/${d.oldPath}`;
  const b = d.deletedFile ? '/dev/null' : `b/${d.newPath}`;
  return { ...d, diff: `--- ${a}\n+++ ${b}\n${d.diff}` };
}

const diffsOf = (list: FileDiff[], unidiff: boolean | undefined) => list.map((d) => diffEntity(unidiff ? withHeaders(d) : d));

async function commitOr404(ctx: Context<unknown>, repo: RepositoryObjects, sha: string): Promise<string> {
  const found = await resolveCommit(repo, repoView(ctx.state, ctx.project), sha);
  if (!found) throw notFound('Commit');
  return found;
}

/** A commit's changes against its first parent (all of its files for a root commit). */
export async function commitDiffs(repo: RepositoryObjects, sha: string): Promise<FileDiff[]> {
  const c = await repo.readCommit(sha);
  const parent = c.parents[0] ? (await repo.readCommit(c.parents[0])).tree : null;
  return repo.memo(`diffs:${sha}`, () => treeDiffs(repo, parent, c.tree));
}

/** Branches and tags whose history holds the commit, each list in name order. */
async function refsContaining(ctx: Context<unknown>, repo: RepositoryObjects, sha: string, type: string) {
  const refs = refsOf(ctx.state, ctx.project.id);
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const out = [];
  if (type !== 'tag') {
    for (const [name, tip] of [...branchEntries(refs)].sort(([a], [b]) => byName(a, b))) if ((await reachable(repo, tip)).has(sha)) out.push(basicRef('branch', name));
  }
  if (type !== 'branch') {
    for (const [name, tag] of [...tagEntries(refs)].sort(([a], [b]) => byName(a, b))) if ((await reachable(repo, tag.commit)).has(sha)) out.push(basicRef('tag', name));
  }
  return out;
}

export const historyRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/compare',
    cacheable: true,
    scope: READ,
    params: { from: str().required(), to: str().required(), from_project_id: int(), straight: bool().default(false), unidiff: bool().default(false) },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      if (p.from_project_id !== undefined && p.from_project_id !== ctx.project.id) {
        // MergeRequestTargetProjectFinder: the project's fork network, which the emulator keeps none of.
        throw messageError(400, `Target project id:${p.from_project_id} is not a fork of project id:${String(ctx.raw.id ?? ctx.project.id)}`);
      }
      const repo = ctx.env.git.repository(ctx.project.id);
      const view = repoView(ctx.state, ctx.project);
      const from = await resolveCommit(repo, view, p.from.trim());
      const to = await resolveCommit(repo, view, p.to.trim());
      if (!from || !to) throw notFound('Ref');
      const web = projectWebUrl(ctx.state, ctx.project, ctx);
      const same = from === to;
      const shas = same ? [] : await commitsBetween(repo, from, to);
      const commits = [];
      for (const sha of shas) commits.push(commitEntity(web, { sha, commit: await repo.readCommit(sha) }));
      const base = p.straight ? from : (await mergeBase(repo, from, [to])) ?? from;
      const diffs = same ? [] : await treeDiffs(repo, (await repo.readCommit(base)).tree, (await repo.readCommit(to)).tree);
      return json({
        commit: commits[commits.length - 1] ?? null,
        commits,
        diffs: diffsOf(diffs, p.unidiff),
        compare_timeout: false,
        compare_same_ref: same,
        web_url: `${web}/-/compare/${from}...${to}`,
      });
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/merge_base',
    cacheable: true,
    scope: READ,
    params: { refs: arr(str(), { commaSeparated: true }).required() },
    handler: async (ctx): Promise<Reply> => {
      const refs = ctx.params.refs;
      if (refs.length < 2) throw messageError(400, 'Provide at least 2 refs');
      const repo = ctx.env.git.repository(ctx.project.id);
      const view = repoView(ctx.state, ctx.project);
      const shas: string[] = [];
      const unknown: string[] = [];
      for (const r of refs) {
        const sha = await resolveCommit(repo, view, r);
        if (sha) shas.push(sha);
        else unknown.push(r);
      }
      if (unknown.length) throw messageError(400, `Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`);
      const base = await mergeBase(repo, shas[0]!, shas.slice(1));
      if (!base) throw notFound('Merge Base');
      return json(commitEntity(projectWebUrl(ctx.state, ctx.project, ctx), { sha: base, commit: await repo.readCommit(base) }));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/contributors',
    cacheable: true,
    scope: READ,
    paginated: true,
    params: {
      ref: str(),
      order_by: str().values(['email', 'name', 'commits']).default('commits'),
      sort: str().values(['asc', 'desc']).default('asc'),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const repo = ctx.env.git.repository(ctx.project.id);
      const view = repoView(ctx.state, ctx.project);
      const ref = p.ref || defaultBranchName(ctx.project);
      const tip = await resolveCommit(repo, view, ref);
      const empty = isEmptyRepository(view.refs);
      if (!tip && !empty) throw notFound();
      // Repository#contributors: the last 2,000 commits without merges, grouped by author email.
      const byEmail = new Map<string, { name: string; email: string; commits: number }>();
      for (const c of tip ? (await log(repo, [tip])).filter((e) => e.commit.parents.length < 2).slice(0, 2000) : []) {
        const found = byEmail.get(c.commit.author.email);
        if (found) found.commits++;
        else byEmail.set(c.commit.author.email, { name: c.commit.author.name, email: c.commit.author.email, commits: 1 });
      }
      const key = p.order_by as 'email' | 'name' | 'commits';
      const list = [...byEmail.values()].sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0));
      if (p.sort === 'desc') list.reverse();
      return json(ctx.paginate(list).map(contributorEntity));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/diff',
    cacheable: true,
    scope: READ,
    paginated: true,
    params: { sha: str().required(), unidiff: bool().default(false) },
    handler: async (ctx): Promise<Reply> => {
      const repo = ctx.env.git.repository(ctx.project.id);
      const sha = await commitOr404(ctx, repo, ctx.params.sha);
      return json(diffsOf(ctx.paginate(await commitDiffs(repo, sha)), ctx.params.unidiff));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/refs',
    cacheable: true,
    scope: READ,
    paginated: true,
    params: { sha: str().required(), type: str().values(['branch', 'tag', 'all']).default('all') },
    handler: async (ctx): Promise<Reply> => {
      const repo = ctx.env.git.repository(ctx.project.id);
      const sha = await commitOr404(ctx, repo, ctx.params.sha);
      return json(ctx.paginate(await refsContaining(ctx, repo, sha, ctx.params.type)));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/sequence',
    cacheable: true,
    scope: READ,
    params: { sha: str().required(), first_parent: bool().default(false) },
    handler: async (ctx): Promise<Reply> => {
      const repo = ctx.env.git.repository(ctx.project.id);
      const sha = await commitOr404(ctx, repo, ctx.params.sha);
      return json({ count: (await log(repo, [sha], { firstParent: ctx.params.first_parent })).length });
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/signature',
    cacheable: true,
    scope: READ,
    params: { sha: str().required() },
    handler: async (ctx): Promise<Reply> => {
      const repo = ctx.env.git.repository(ctx.project.id);
      await commitOr404(ctx, repo, ctx.params.sha);
      // The emulator writes no signed commits (a fixture cannot sign one either).
      throw notFound('Signature');
    },
  }),
];
