// CI Lint (lib/api/lint.rb, lib/gitlab/ci/lint.rb, entities/ci/lint/result.rb): POST checks a
// given configuration in the project's context, GET checks the project's own file at a commit.
// Both answer 200 with `valid`, `errors`, `warnings`, `merged_yaml`, `includes` (and `jobs` when
// `include_jobs`); a dry run simulates the pipeline a push to the ref would create.
import { ACCESS, type Project, type User } from '../../store/state.js';
import { hasProjectRole, canUseFeature } from '../../policy/access.js';
import { bool, str, type Constraint } from '../../http/params.js';
import { json } from '../../http/route.js';
import { notFound } from '../../core/errors.js';
import { listFiles } from '../../git/tree.js';
import { project, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { branchTip, canReadCode, defaultBranchName, findTag, isEmptyRepository, isProtected, refsOf, repoView, resolveCommit } from '../repositories/index.js';
import { projectPaths, projectWebUrl } from '../projects/index.js';
import { lintConfig, lintDryRun, type CompileInput, type LintResult } from './config/index.js';
import { variablesOf } from './variables.js';

/** `create_pipeline`: developers and above, where CI/CD is enabled. */
function canCreatePipeline(state: State, user: User | null, p: Project, now: number): boolean {
  return hasProjectRole(state, user, p, ACCESS.developer, now) && canUseFeature(state, user, p, 'builds', now);
}

/** Project#ci_config_path_or_default. */
function ciConfigPath(p: Project): string {
  const set = p.settings.ci_config_path;
  return typeof set === 'string' && set !== '' ? set : '.gitlab-ci.yml';
}

/** The repository at a commit as the compiler reads it: every path, and the YAML files (only those can be included). */
async function repositoryAt(ctx: Context<unknown>, sha: string | null): Promise<{ files: Map<string, string>; paths: string[] }> {
  const files = new Map<string, string>();
  if (!sha) return { files, paths: [] };
  const repo = ctx.env.git.repository(ctx.project.id);
  const commit = await repo.readCommit(sha);
  const entries = await listFiles(repo, commit.tree);
  const decoder = new TextDecoder();
  for (const [path, entry] of entries) {
    if (/\.ya?ml$/.test(path)) files.set(path, decoder.decode(await repo.readBlob(entry.oid)));
  }
  return { files, paths: [...entries.keys()] };
}

/** The predefined and project variables of a push pipeline on `ref` (what lint's pipeline simulation sees). */
function pushVariables(ctx: Context<unknown>, ref: string, sha: string | null): Record<string, string> {
  const p = ctx.project;
  const refs = refsOf(ctx.state, p.id);
  const tag = !branchTip(refs, ref) && !!findTag(refs, ref);
  const { ns, fullPath } = projectPaths(ctx.state, p);
  const protectedRef = !tag && isProtected(refs, ref);
  const vars: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const v of variablesOf(ctx.state, { kind: 'project', id: p.id })) {
    if (v.environmentScope === '*' && (!v.protected || protectedRef)) vars[v.key] = v.value;
  }
  Object.assign(vars, {
    CI: 'true', GITLAB_CI: 'true', CI_SERVER_URL: ctx.webBase, CI_SERVER_HOST: new URL(ctx.webBase).host,
    CI_PROJECT_ID: String(p.id), CI_PROJECT_NAME: p.path, CI_PROJECT_PATH: fullPath, CI_PROJECT_NAMESPACE: ns.fullPath,
    CI_PROJECT_URL: projectWebUrl(ctx.state, p, ctx), CI_DEFAULT_BRANCH: defaultBranchName(p),
    CI_PIPELINE_SOURCE: 'push', CI_COMMIT_REF_NAME: ref, CI_COMMIT_REF_PROTECTED: String(protectedRef),
    ...(sha ? { CI_COMMIT_SHA: sha, CI_COMMIT_SHORT_SHA: sha.slice(0, 8) } : {}),
    ...(tag ? { CI_COMMIT_TAG: ref } : { CI_COMMIT_BRANCH: ref }),
  });
  return vars;
}

type Snapshot = Awaited<ReturnType<typeof repositoryAt>>;

function lint(ctx: Context<unknown>, content: string, sha: string | null, { files, paths }: Snapshot, dryRun: boolean, ref: string): LintResult {
  const input: CompileInput = {
    yaml: content,
    readFile: (path) => files.get(path),
    paths: () => paths,
    variables: pushVariables(ctx, ref, sha),
    source: 'push',
    ...(sha ? { project: { fullPath: projectPaths(ctx.state, ctx.project).fullPath, webUrl: projectWebUrl(ctx.state, ctx.project, ctx), sha } } : {}),
  };
  return dryRun ? lintDryRun(input) : lintConfig(input);
}

/** Entities::Ci::Lint::Result. */
function lintEntity(r: LintResult, includeJobs: boolean | undefined) {
  return {
    valid: r.valid, errors: r.errors, warnings: r.warnings, merged_yaml: r.merged_yaml, includes: r.includes,
    ...(includeJobs ? { jobs: r.jobs } : {}),
  };
}

/** The head of the default branch, or null in an empty repository. */
function headSha(ctx: Context<unknown>): string | null {
  const refs = refsOf(ctx.state, ctx.project.id);
  return branchTip(refs, defaultBranchName(ctx.project)) ?? null;
}

const GET_CONSTRAINTS: Constraint[] = [
  { kind: 'mutually_exclusive', names: ['sha', 'content_ref'] },
  { kind: 'mutually_exclusive', names: ['ref', 'dry_run_ref'] },
];

export const lintRoutes = [
  route({
    method: 'GET', path: '/projects/:id/ci/lint',
    scope: project(canReadCode),
    params: { sha: str(), content_ref: str(), dry_run: bool().default(false), include_jobs: bool(), ref: str(), dry_run_ref: str() },
    constraints: GET_CONSTRAINTS,
    handler: async (ctx) => {
      const refs = refsOf(ctx.state, ctx.project.id);
      if (isEmptyRepository(refs)) throw notFound('Repository');
      const p = ctx.params;
      const repo = ctx.env.git.repository(ctx.project.id);
      const revision = p.content_ref ?? p.sha;
      const sha = revision !== undefined ? await resolveCommit(repo, repoView(ctx.state, ctx.project), revision) : headSha(ctx);
      if (!sha) throw notFound('Commit');
      const snapshot = await repositoryAt(ctx, sha);
      const path = ciConfigPath(ctx.project);
      const content = snapshot.files.get(path) ?? (snapshot.paths.includes(path) ? await blobText(ctx, sha, path) : undefined);
      const result = lint(ctx, content ?? '', sha, snapshot, p.dry_run, p.dry_run_ref ?? p.ref ?? defaultBranchName(ctx.project));
      return json(lintEntity(result, p.include_jobs));
    },
  }),
  route({
    method: 'POST', path: '/projects/:id/ci/lint',
    scope: project(canCreatePipeline),
    params: { content: str().required(), dry_run: bool().default(false), include_jobs: bool(), ref: str() },
    handler: async (ctx) => {
      const p = ctx.params;
      const sha = headSha(ctx);
      const result = lint(ctx, p.content, sha, await repositoryAt(ctx, sha), p.dry_run, p.ref ?? defaultBranchName(ctx.project));
      return json(lintEntity(result, p.include_jobs));
    },
  }),
];

/** A CI file configured outside the YAML extensions (`ci/pipeline.txt`) is still read. */
async function blobText(ctx: Context<unknown>, sha: string, path: string): Promise<string | undefined> {
  const repo = ctx.env.git.repository(ctx.project.id);
  const commit = await repo.readCommit(sha);
  const entries = await listFiles(repo, commit.tree);
  const entry = entries.get(path);
  return entry ? new TextDecoder().decode(await repo.readBlob(entry.oid)) : undefined;
}
