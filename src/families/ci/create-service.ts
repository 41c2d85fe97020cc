// Ci::CreatePipelineService and its chain (lib/gitlab/ci/pipeline/chain/*): the ref and its
// commit, `[ci skip]`, the project's CI file at that commit compiled with the pipeline's
// variables, workflow and job rules, then the pipeline and its jobs. What GitLab refuses comes
// back as its messages; a push saves a pipeline whose file has errors as failed.
import type { RepositoryObjects } from '../../git/objects.js';
import { diffTrees, entryAt, listFiles } from '../../git/tree.js';
import type { Project } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { branchTip, canPushToBranch, findTag, protectionsFor, refsOf, repoView, resolveCommit } from '../repositories/index.js';
import { mergeBase } from '../../git/merge-base.js';
import { projectAccess } from '../../policy/access.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import { compilePipeline, type CompiledPipeline, type CompileInput, type PipelineSource } from './config/index.js';
import { withCacheKeys } from './cache-keys.js';
import { createFromPlan } from './creation.js';
import { createPipeline } from './pipelines.js';
import { pipelineVariableMap } from './predefined.js';
import type { Pipeline, PipelineVariable } from './records.js';
import { ids } from './variables.js';
import { downstreamVariables } from './forward.js';

export const SKIP_PATTERN = /\[(ci[ _-]skip|skip[ _-]ci)\]/i;
export const NULL_SHA = '0000000000000000000000000000000000000000';

export interface PipelineRequest {
  project: Project;
  userId: number;
  source: PipelineSource;
  /** A branch or tag; a merge request pipeline's `refs/merge-requests/:iid/head`. */
  ref: string;
  /** The commit, when the ref does not name it (a merge request's source commit). */
  sha?: string;
  beforeSha?: string;
  variables?: PipelineVariable[];
  mergeRequestIid?: number | null;
  triggerId?: number | null;
  scheduleId?: number | null;
  /** Whether `[ci skip]` in the commit message skips it (pushes), and whether a file with errors is saved as a failed pipeline. */
  push?: boolean;
  /** A push option `ci.skip` (the branch's pipeline and its merge requests'), or a rebase's `skip_ci`. */
  skip?: boolean;
  /** The pipeline's `inputs` (a file with a `spec:inputs` header). */
  inputs?: Readonly<Record<string, unknown>>;
}

export type PipelineOutcome =
  | { ok: true; change: Change<Pipeline> }
  | { ok: false; errors: string[]; change?: Change<Pipeline> };

export interface CreateWork {
  state: State;
  now: number;
  webBase: string;
  repo: RepositoryObjects;
}

/** Project#ci_config_path_or_default. */
export function ciConfigPath(p: Project): string {
  const set = p.settings.ci_config_path;
  return typeof set === 'string' && set !== '' ? set : '.gitlab-ci.yml';
}

/** The repository at a commit as the compiler reads it: its paths and its YAML files (what `include: local` can name). */
async function repositoryAt(repo: RepositoryObjects, sha: string): Promise<{ files: Map<string, string>; paths: string[] }> {
  return repo.memo(`ci-files:${sha}`, async () => {
    const commit = await repo.readCommit(sha);
    const entries = await listFiles(repo, commit.tree);
    const files = new Map<string, string>();
    const decoder = new TextDecoder();
    for (const [path, entry] of entries) if (/\.ya?ml$/.test(path)) files.set(path, decoder.decode(await repo.readBlob(entry.oid)));
    return { files, paths: [...entries.keys()] };
  });
}

/** The paths a push changed (`rules:changes`); undefined for a new ref, as GitLab treats it. */
async function changedPaths(repo: RepositoryObjects, before: string | undefined, after: string): Promise<string[] | undefined> {
  if (!before || before === NULL_SHA) return undefined;
  try {
    const [a, b] = await Promise.all([repo.readCommit(before), repo.readCommit(after)]);
    return (await diffTrees(repo, a.tree, b.tree)).map((d) => d.path);
  } catch {
    return undefined;
  }
}

/**
 * Ci::Pipeline#modified_paths_since: the paths changed from the merge base of a ref and the
 * commit to the commit; null when the ref (Project#commit: a branch, tag or commit id) names no commit.
 */
async function pathsSince(repo: RepositoryObjects, state: State, project: Project, ref: string, sha: string): Promise<string[] | null> {
  const other = ref === '' ? null : await resolveCommit(repo, repoView(state, project), ref);
  if (other === null) return null;
  const base = (await mergeBase(repo, other, [sha])) ?? other;
  const [a, b] = await Promise.all([repo.readCommit(base), repo.readCommit(sha)]);
  return (await diffTrees(repo, a.tree, b.tree)).map((d) => d.path);
}

/** Works out the pipeline a request makes, or GitLab's errors; the change that stores it is applied by the caller. */
export async function preparePipeline(work: CreateWork, req: PipelineRequest): Promise<PipelineOutcome> {
  const { state, repo } = work;
  const project = req.project;
  const refs = refsOf(state, project.id);
  const branch = branchTip(refs, req.ref);
  const tag = branch === undefined ? findTag(refs, req.ref) : undefined;
  const sha = req.sha ?? branch ?? tag?.commit;
  if (!sha) return { ok: false, errors: ['Reference not found'] };
  const isTag = req.sha === undefined && branch === undefined && tag !== undefined;
  // Chain::Validate::Abilities#allowed_to_write_ref?: a protected branch needs who may push or merge to it.
  if (branch !== undefined && !req.push && !mayUpdateBranch(state, req.userId, project, req.ref, work.now)) {
    return { ok: false, errors: [`Insufficient permissions for protected ref '${req.ref}'`] };
  }
  let commit;
  try {
    commit = await repo.readCommit(sha);
  } catch {
    return { ok: false, errors: ['Commit not found'] };
  }
  const base = {
    ref: req.ref, sha, tag: isTag, userId: req.userId, source: req.source, beforeSha: req.beforeSha ?? NULL_SHA,
    variables: req.variables ?? [], mergeRequestIid: req.mergeRequestIid ?? null, triggerId: req.triggerId ?? null, scheduleId: req.scheduleId ?? null,
  };
  const now = work.now;
  if (req.skip || (req.push && SKIP_PATTERN.test(commit.message))) {
    return { ok: true, change: (draft) => createPipeline(draft as State, tget(draft.projects, project.id)!, { ...base, status: 'skipped' }, now) };
  }
  // The CI file first: a commit without one costs no walk of its tree.
  const yaml = await readOther(repo, commit.tree, ciConfigPath(project));
  if (yaml === undefined) return { ok: false, errors: ['Missing CI config file'] };
  const snapshot = await repositoryAt(repo, sha);
  // What `rules:` see: the predefined variables of the pipeline about to be made, the user's and the pipeline's own.
  const provisional: Pipeline = {
    ...base, id: ids.peek(state, 'ci_pipeline'), iid: ids.peek(state, 'ci_pipeline_iid', project.id), projectId: project.id, status: 'created',
    parentId: null, childIds: [], createdAt: now, updatedAt: now, startedAt: null, finishedAt: null, locked: false, stages: [], name: null, yamlErrors: null,
  };
  const variables = pipelineVariableMap({ state, pipeline: provisional, commit, webBase: work.webBase });
  // `compare_to` refs are met while rules are read: compile, work out the refs it asked for, compile again until none is new.
  const since = new Map<string, readonly string[] | null>();
  const wanted = new Set<string>();
  const input: CompileInput = {
    yaml,
    readFile: (path) => snapshot.files.get(path),
    paths: () => snapshot.paths,
    changedPaths: req.push ? await changedPaths(repo, req.beforeSha, sha) : undefined,
    changedSince: (ref) => {
      if (since.has(ref)) return since.get(ref);
      wanted.add(ref);
      return undefined;
    },
    variables,
    source: req.source,
    ...(req.inputs ? { inputs: req.inputs } : {}),
  };
  let compiled = compilePipeline(input);
  while (wanted.size) {
    for (const ref of wanted) since.set(ref, await pathsSince(repo, state, project, ref, sha));
    wanted.clear();
    compiled = compilePipeline(input);
  }
  if (compiled.errors.length && compiled.jobs.length === 0 && compiled.created) {
    const errors = compiled.errors;
    if (!req.push) return { ok: false, errors };
    return {
      ok: false,
      errors,
      change: (draft) => createPipeline(draft as State, tget(draft.projects, project.id)!, { ...base, status: 'failed', yamlErrors: errors.join(', ') }, now),
    };
  }
  if (!compiled.created) return { ok: false, errors: compiled.errors.length ? compiled.errors : ['Pipeline filtered out by workflow rules.'] };
  if (compiled.jobs.length === 0) return { ok: false, errors: compiled.errors.length ? compiled.errors : ['No stages / jobs for this pipeline.'] };
  // Trigger jobs' child pipelines: their local files, compiled now, while the commit's files are read,
  // with the variables the trigger job forwards as the child's own (not this pipeline's, unless forwarded).
  const children: Record<string, CompiledPipeline> = Object.create(null) as Record<string, CompiledPipeline>;
  const withoutOwn = compiled.jobs.some((j) => j.trigger?.include?.length) ? pipelineVariableMap({ state, pipeline: { ...provisional, variables: [] }, commit, webBase: work.webBase }) : variables;
  for (const job of compiled.jobs) {
    const include = job.trigger?.include;
    if (!include?.length) continue;
    const forwarded = Object.fromEntries(downstreamVariables(job, req.variables ?? []).map((v) => [v.key, v.value]));
    children[job.name] = compilePipeline({
      yaml: `include:\n${include.map((path) => `  - local: '${path.replace(/'/g, "''")}'`).join('\n')}\n`,
      readFile: (path) => snapshot.files.get(path),
      paths: () => snapshot.paths,
      variables: { ...withoutOwn, CI_PIPELINE_SOURCE: 'parent_pipeline', ...forwarded },
      source: 'parent_pipeline',
    });
  }
  for (const [name, child] of Object.entries(children)) children[name] = { ...child, jobs: await withCacheKeys(repo, sha, child.jobs) };
  const keyed = { ...compiled, jobs: await withCacheKeys(repo, sha, compiled.jobs) };
  return { ok: true, change: (draft) => createFromPlan(draft as State, tget(draft.projects, project.id)!, keyed, { ...base, children }, now) };
}

/** A file of the commit's tree (the CI file), or undefined. */
async function readOther(repo: RepositoryObjects, tree: string, path: string): Promise<string | undefined> {
  const entry = await entryAt(repo, tree, path);
  if (!entry || entry.type !== 'blob') return undefined;
  return new TextDecoder().decode(await repo.readBlob(entry.oid));
}

/** Gitlab::UserAccess#can_update_branch?: push, or merge, to the branch as its protections allow. */
export function mayUpdateBranch(state: State, userId: number, project: Project, ref: string, now: number): boolean {
  const user = tget(state.users, userId) ?? null;
  if (canPushToBranch(state, user, project, ref, now)) return true;
  const rules = protectionsFor(refsOf(state, project.id), ref);
  if (rules.length === 0) return true;
  const access = projectAccess(state, user, project, now);
  return rules.some((r) => r.mergeAccessLevel > 0 && access >= r.mergeAccessLevel);
}
