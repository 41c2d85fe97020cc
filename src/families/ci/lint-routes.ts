// CI Lint (lib/api/lint.rb, lib/gitlab/ci/lint.rb, entities/ci/lint/result.rb): POST checks a
// given configuration in the project's context, GET checks the project's own file at a commit.
// Both answer 200 with `valid`, `errors`, `warnings`, `merged_yaml`, `includes` (and `jobs` when
// `include_jobs`); a dry run simulates the pipeline a push to the ref would create.
import { ACCESS, type Project, type User } from '../../store/state.js';
import { hasProjectRole, canUseFeature } from '../../policy/access.js';
import { bool, str, type Constraint } from '../../http/params.js';
import { json } from '../../http/route.js';
import { notFound } from '../../core/errors.js';
import { project, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { branchTip, canReadCode, defaultBranchName, findTag, isEmptyRepository, isProtected, refsOf, repoView, resolveCommit } from '../repositories/index.js';
import { projectPaths, projectWebUrl } from '../projects/index.js';
import { lintConfig, lintDryRun, repositorySnapshot, type CompileInput, type LintResult, type RepositorySnapshot } from './config/index.js';
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

const snapshotAt = (ctx: Context<unknown>, sha: string | null, alsoRead: string[] = []) => repositorySnapshot(ctx.env.git.repository(ctx.project.id), sha, alsoRead);

function compileInput(ctx: Context<unknown>, content: string, sha: string | null, snapshot: RepositorySnapshot, ref: string): CompileInput {
  return {
    yaml: content,
    readFile: snapshot.readFile,
    paths: snapshot.paths,
    variables: pushVariables(ctx, ref, sha),
    source: 'push',
    ...(sha ? { project: { fullPath: projectPaths(ctx.state, ctx.project).fullPath, webUrl: projectWebUrl(ctx.state, ctx.project, ctx), sha } } : {}),
  };
}

/** What a pipeline simulation answers when it cannot start (the chain's first steps). */
const refused = (error: string): LintResult => ({ valid: false, errors: [error], warnings: [], merged_yaml: null, includes: null, jobs: [] });

/**
 * Lint's answer: the static check reads includes at `sha`; the dry run creates (without saving)
 * the push pipeline of `ref`, at the ref's own commit, as Ci::CreatePipelineService does.
 */
async function lint(ctx: Context<unknown>, content: string, sha: string | null, snapshot: RepositorySnapshot, dryRun: boolean, ref: string): Promise<LintResult> {
  if (!dryRun) return lintConfig(compileInput(ctx, content, sha, snapshot, ref));
  if (!canCreatePipeline(ctx.state, ctx.user, ctx.project, ctx.now())) return refused('Insufficient permissions to create a new pipeline');
  const refs = refsOf(ctx.state, ctx.project.id);
  const tip = branchTip(refs, ref) ?? (findTag(refs, ref) ? await resolveCommit(ctx.env.git.repository(ctx.project.id), repoView(ctx.state, ctx.project), ref) : null);
  if (!tip) return refused('Reference not found');
  const at = tip === sha ? snapshot : await snapshotAt(ctx, tip);
  return lintDryRun(compileInput(ctx, content, tip, at, ref));
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
      const path = ciConfigPath(ctx.project);
      const snapshot = await snapshotAt(ctx, sha, [path]);
      const content = snapshot.readFile(path);
      const result = await lint(ctx, content ?? '', sha, snapshot, p.dry_run, p.dry_run_ref ?? p.ref ?? defaultBranchName(ctx.project));
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
      const result = await lint(ctx, p.content, sha, await snapshotAt(ctx, sha), p.dry_run, p.ref ?? defaultBranchName(ctx.project));
      return json(lintEntity(result, p.include_jobs));
    },
  }),
];
