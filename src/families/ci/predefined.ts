// The variables a job sees (Gitlab::Ci::Variables::Builder, Ci::Pipeline#predefined_variables,
// Ci::Build#variables): GitLab's predefined CI_* and GITLAB_* variables of the server, the
// project, the pipeline, its commit, its merge request and the job; then the configuration's,
// the instance's, the groups', the project's (protected ones only on protected refs, each in its
// environment scope) and the pipeline's own, later ones winning.
import { ancestry } from '../../policy/access.js';
import type { CommitData } from '../../git/format.js';
import { pget, tget } from '../../store/table.js';
import { findProtectedTag, protectedBranchEntries, protectedTagEntries, refsOf } from '../repositories/index.js';
import { GITLAB_VERSION } from '../instance/index.js';
import type { State } from '../world.js';
import type { Job, Pipeline } from './records.js';
import { listVariables } from './variables.js';

/** One variable as a runner receives it. */
export interface RunnerVariable {
  key: string;
  value: string;
  public: boolean;
  masked: boolean;
  file?: true;
  raw?: true;
}

/** CI_COMMIT_REF_SLUG's rule (Gitlab::Utils.slugify): lower case, `-` for anything else, 63 characters, no `-` at either end. */
export function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '');
}

const wildcard = (pattern: string) => new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/** ProtectedBranch/ProtectedTag.protected?: the ref or a wildcard rule names it. */
export function refProtected(state: State, projectId: number, ref: string, tag: boolean): boolean {
  const refs = refsOf(state, projectId);
  if (tag) {
    if (findProtectedTag(refs, ref)) return true;
    for (const [name] of protectedTagEntries(refs)) if (name.includes('*') && wildcard(name).test(ref)) return true;
    return false;
  }
  for (const [name] of protectedBranchEntries(refs)) if (name === ref || (name.includes('*') && wildcard(name).test(ref))) return true;
  return false;
}

/** Whether a variable's environment scope covers an environment (none: only `*`). */
export function scopeMatches(scope: string, environment: string | null): boolean {
  if (scope === '*') return true;
  if (environment === null) return false;
  return scope.includes('*') ? wildcard(scope).test(environment) : scope === environment;
}

export interface VariableContext {
  state: State;
  pipeline: Pipeline;
  /** The commit of the pipeline, when the repository has it. */
  commit: CommitData | null;
  /** The emulator's web URL (`https://gitlab.example.com`). */
  webBase: string;
}

const pub = (key: string, value: string | number | boolean | null | undefined): RunnerVariable => ({ key, value: value === null || value === undefined ? '' : String(value), public: true, masked: false });

/** The predefined variables of a pipeline (what `rules:` and `workflow:rules` read). */
export function pipelinePredefined(c: VariableContext): RunnerVariable[] {
  const { state, pipeline: p, commit, webBase } = c;
  const project = tget(state.projects, p.projectId)!;
  const ns = tget(state.namespaces, project.namespaceId);
  const chain = ancestry(state, project.namespaceId);
  const root = chain[chain.length - 1] ?? ns;
  const path = `${ns?.fullPath ?? ''}/${project.path}`;
  const url = new URL(webBase);
  const [major, minor, patch] = GITLAB_VERSION.split('.');
  const out: RunnerVariable[] = [
    pub('CI', 'true'), pub('GITLAB_CI', 'true'),
    pub('CI_SERVER_FQDN', url.host), pub('CI_SERVER_URL', webBase), pub('CI_SERVER_HOST', url.hostname),
    pub('CI_SERVER_PORT', url.port || (url.protocol === 'https:' ? '443' : '80')), pub('CI_SERVER_PROTOCOL', url.protocol.replace(':', '')),
    pub('CI_SERVER_SHELL_SSH_HOST', url.hostname), pub('CI_SERVER_SHELL_SSH_PORT', '22'),
    pub('CI_SERVER_NAME', 'GitLab'), pub('CI_SERVER_VERSION', GITLAB_VERSION), pub('CI_SERVER_VERSION_MAJOR', major), pub('CI_SERVER_VERSION_MINOR', minor),
    pub('CI_SERVER_VERSION_PATCH', patch), pub('CI_SERVER_REVISION', 'emulator'),
    pub('GITLAB_FEATURES', ''),
    pub('CI_PROJECT_ID', project.id), pub('CI_PROJECT_NAME', project.path), pub('CI_PROJECT_TITLE', project.name), pub('CI_PROJECT_DESCRIPTION', project.description),
    pub('CI_PROJECT_PATH', path), pub('CI_PROJECT_PATH_SLUG', slugify(path)), pub('CI_PROJECT_NAMESPACE', ns?.fullPath ?? ''),
    pub('CI_PROJECT_NAMESPACE_SLUG', slugify(ns?.fullPath ?? '')), pub('CI_PROJECT_NAMESPACE_ID', project.namespaceId),
    pub('CI_PROJECT_ROOT_NAMESPACE', root?.path ?? ''), pub('CI_PROJECT_URL', `${webBase}/${path}`), pub('CI_PROJECT_VISIBILITY', project.visibility),
    pub('CI_PROJECT_REPOSITORY_LANGUAGES', ''), pub('CI_PROJECT_CLASSIFICATION_LABEL', ''),
    pub('CI_DEFAULT_BRANCH', project.defaultBranch ?? ''), pub('CI_CONFIG_PATH', String(project.settings.ci_config_path ?? '') || '.gitlab-ci.yml'),
    pub('CI_PAGES_DOMAIN', 'example.com'), pub('CI_PAGES_URL', `http://${root?.path ?? ''}.example.com/${project.path}`),
    pub('CI_API_V4_URL', `${webBase}/api/v4`), pub('CI_API_GRAPHQL_URL', `${webBase}/api/graphql`),
    pub('CI_PIPELINE_IID', p.iid), pub('CI_PIPELINE_SOURCE', p.source), pub('CI_PIPELINE_CREATED_AT', new Date(p.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z')),
    pub('CI_PIPELINE_ID', p.id), pub('CI_PIPELINE_URL', `${webBase}/${path}/-/pipelines/${p.id}`),
  ];
  if (p.name) out.push(pub('CI_PIPELINE_NAME', p.name));
  const sha = p.sha ?? '';
  out.push(
    pub('CI_COMMIT_SHA', sha), pub('CI_COMMIT_SHORT_SHA', sha.slice(0, 8)), pub('CI_COMMIT_BEFORE_SHA', p.beforeSha),
    pub('CI_COMMIT_REF_NAME', p.ref), pub('CI_COMMIT_REF_SLUG', slugify(p.ref)),
  );
  const mr = p.mergeRequestIid === null ? undefined : pget(state.mergeRequests, p.projectId, p.mergeRequestIid);
  if (!p.tag && !mr) out.push(pub('CI_COMMIT_BRANCH', p.ref));
  if (p.tag) out.push(pub('CI_COMMIT_TAG', p.ref), pub('CI_COMMIT_TAG_MESSAGE', ''));
  if (commit) {
    const lines = commit.message.split('\n');
    const description = lines.slice(1).join('\n').replace(/^\n+/, '');
    out.push(
      pub('CI_COMMIT_MESSAGE', commit.message), pub('CI_COMMIT_TITLE', lines[0] ?? ''), pub('CI_COMMIT_DESCRIPTION', description),
      pub('CI_COMMIT_TIMESTAMP', isoWithOffset(commit.committer.timestamp, commit.committer.offset)), pub('CI_COMMIT_AUTHOR', `${commit.author.name} <${commit.author.email}>`),
    );
  }
  out.push(pub('CI_COMMIT_REF_PROTECTED', refProtected(state, p.projectId, p.ref, p.tag)));
  if (mr) {
    const users = (ids: number[]) => ids.map((id) => tget(state.users, id)?.username).filter(Boolean).join(',');
    // A merge train pipeline (the merge trains family's `refs/merge-requests/:iid/train`): the train commit's parents.
    const train = p.ref === `refs/merge-requests/${mr.iid}/train`;
    out.push(
      pub('CI_MERGE_REQUEST_ID', mr.id), pub('CI_MERGE_REQUEST_IID', mr.iid), pub('CI_MERGE_REQUEST_REF_PATH', train ? p.ref : `refs/merge-requests/${mr.iid}/head`),
      pub('CI_MERGE_REQUEST_PROJECT_ID', mr.projectId), pub('CI_MERGE_REQUEST_PROJECT_PATH', path), pub('CI_MERGE_REQUEST_PROJECT_URL', `${webBase}/${path}`),
      pub('CI_MERGE_REQUEST_TARGET_BRANCH_NAME', mr.targetBranch), pub('CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED', refProtected(state, p.projectId, mr.targetBranch, false)),
      pub('CI_MERGE_REQUEST_TARGET_BRANCH_SHA', train ? commit?.parents[0] ?? '' : ''), pub('CI_MERGE_REQUEST_TITLE', mr.title), pub('CI_MERGE_REQUEST_DESCRIPTION', mr.description),
      pub('CI_MERGE_REQUEST_DRAFT', mr.draft),
      pub('CI_MERGE_REQUEST_EVENT_TYPE', train ? 'merge_train' : 'detached'), pub('CI_MERGE_REQUEST_SOURCE_PROJECT_ID', mr.projectId), pub('CI_MERGE_REQUEST_SOURCE_PROJECT_PATH', path),
      pub('CI_MERGE_REQUEST_SOURCE_PROJECT_URL', `${webBase}/${path}`), pub('CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', mr.sourceBranch),
      pub('CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED', refProtected(state, p.projectId, mr.sourceBranch, false)), pub('CI_MERGE_REQUEST_SOURCE_BRANCH_SHA', train ? commit?.parents[1] ?? '' : ''),
      pub('CI_MERGE_REQUEST_DIFF_ID', mr.id), pub('CI_MERGE_REQUEST_DIFF_BASE_SHA', mr.baseSha),
    );
    if (mr.assigneeIds.length) out.push(pub('CI_MERGE_REQUEST_ASSIGNEES', users(mr.assigneeIds)));
    const labels = mr.labelIds.map((id) => tget(state.labels, id)?.title).filter(Boolean);
    if (labels.length) out.push(pub('CI_MERGE_REQUEST_LABELS', labels.join(',')));
  }
  const user = tget(state.users, p.userId);
  if (user) out.push(pub('GITLAB_USER_ID', user.id), pub('GITLAB_USER_EMAIL', user.email), pub('GITLAB_USER_LOGIN', user.username), pub('GITLAB_USER_NAME', user.name));
  return out;
}

function isoWithOffset(seconds: number, offsetMinutes: number): string {
  const local = new Date((seconds + offsetMinutes * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The instance's, the groups' (outermost first) and the project's variables a ref and an environment see. */
export function userVariables(state: State, projectId: number, ref: string, tag: boolean, environment: string | null): RunnerVariable[] {
  const project = tget(state.projects, projectId);
  if (!project) return [];
  const isProtected = refProtected(state, projectId, ref, tag);
  const groups = ancestry(state, project.namespaceId).filter((g) => g.kind === 'group').reverse();
  const lists = [
    listVariables(state, { kind: 'instance', id: 0 }),
    ...groups.map((g) => listVariables(state, { kind: 'group', id: g.id })),
    listVariables(state, { kind: 'project', id: projectId }),
  ];
  const out: RunnerVariable[] = [];
  for (const list of lists) {
    for (const v of list) {
      if (v.protected && !isProtected) continue;
      if (!scopeMatches(v.environmentScope, environment)) continue;
      out.push({ key: v.key, value: v.value, public: false, masked: v.masked, ...(v.variableType === 'file' ? { file: true as const } : {}), ...(v.raw ? { raw: true as const } : {}) });
    }
  }
  return out;
}

/** The later of each key wins; the order of first appearance is kept. */
export function dedupe(list: RunnerVariable[]): RunnerVariable[] {
  const last = new Map<string, RunnerVariable>();
  for (const v of list) last.set(v.key, v);
  return [...last.values()];
}

/** The pipeline's variables as `rules:` read them (predefined, then the user's and the pipeline's). */
export function pipelineVariableMap(c: VariableContext): Record<string, string> {
  const p = c.pipeline;
  const all = [
    ...pipelinePredefined(c),
    ...userVariables(c.state, p.projectId, p.ref, p.tag, null),
    ...p.variables.map((v) => ({ key: v.key, value: v.value, public: false, masked: false })),
  ];
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const v of all) out[v.key] = v.value;
  return out;
}

export interface JobVariableContext extends VariableContext {
  job: Job;
  token: string;
  runner: { id: number; description: string; tags: string[] } | null;
  timeoutSeconds: number;
}

/** Every variable a runner is handed for a job, in GitLab's order of precedence (the last of a key wins). */
export function jobVariables(c: JobVariableContext): RunnerVariable[] {
  const { job, pipeline: p, webBase } = c;
  const project = tget(c.state.projects, p.projectId)!;
  const ns = tget(c.state.namespaces, project.namespaceId);
  const path = `${ns?.fullPath ?? ''}/${project.path}`;
  const env = job.plan?.environment ?? null;
  const url = new URL(webBase);
  const jobPart: RunnerVariable[] = [
    { key: 'CI_JOB_TOKEN', value: c.token, public: false, masked: true },
    pub('CI_JOB_ID', job.id), pub('CI_JOB_NAME', job.name), pub('CI_JOB_NAME_SLUG', slugify(job.name)), pub('CI_JOB_GROUP_NAME', job.name.replace(/\s+\d+\/\d+$/, '')),
    pub('CI_JOB_STAGE', job.stage), pub('CI_JOB_URL', `${webBase}/${path}/-/jobs/${job.id}`), pub('CI_JOB_TIMEOUT', c.timeoutSeconds),
    pub('CI_JOB_STARTED_AT', job.startedAt === null ? '' : new Date(job.startedAt).toISOString().replace(/\.\d{3}Z$/, 'Z')),
    pub('CI_NODE_TOTAL', 1), pub('CI_BUILDS_DIR', '/builds'), pub('CI_PROJECT_DIR', `/builds/${path}`),
    pub('CI_REPOSITORY_URL', `${url.protocol}//gitlab-ci-token:[MASKED]@${url.host}${url.pathname.replace(/\/$/, '')}/${path}.git`),
    pub('CI_REGISTRY', `registry.${url.hostname}`), pub('CI_REGISTRY_IMAGE', `registry.${url.hostname}/${path}`.toLowerCase()),
    pub('CI_REGISTRY_USER', 'gitlab-ci-token'), { key: 'CI_REGISTRY_PASSWORD', value: c.token, public: false, masked: true },
    pub('CI_DEPENDENCY_PROXY_SERVER', url.host),
  ];
  if (job.when === 'manual') jobPart.push(pub('CI_JOB_MANUAL', 'true'));
  // Ci::Build#user_variables: the job's user (who played a manual job), not the pipeline's.
  const user = tget(c.state.users, job.userId);
  const userPart = user ? [pub('GITLAB_USER_ID', user.id), pub('GITLAB_USER_EMAIL', user.email), pub('GITLAB_USER_LOGIN', user.username), pub('GITLAB_USER_NAME', user.name)] : [];
  if (c.runner) jobPart.push(pub('CI_RUNNER_ID', c.runner.id), pub('CI_RUNNER_DESCRIPTION', c.runner.description), pub('CI_RUNNER_TAGS', JSON.stringify(c.runner.tags)));
  if (env) {
    jobPart.push(pub('CI_ENVIRONMENT_NAME', env.name), pub('CI_ENVIRONMENT_SLUG', slugify(env.name).slice(0, 24)), pub('CI_ENVIRONMENT_ACTION', env.action), pub('CI_ENVIRONMENT_TIER', environmentTier(env.name)));
    if (env.url) jobPart.push(pub('CI_ENVIRONMENT_URL', env.url));
  }
  const yaml = Object.entries(job.plan?.variables ?? {}).map(([key, value]) => pub(key, value));
  const predefined = pipelinePredefined(c);
  return dedupe([
    ...predefined.slice(0, 2), ...jobPart, ...predefined.slice(2), ...userPart,
    ...yaml,
    ...userVariables(c.state, p.projectId, p.ref, p.tag, env?.name ?? null),
    ...p.variables.map((v) => ({ key: v.key, value: v.value, public: false, masked: false, ...(v.variableType === 'file' ? { file: true as const } : {}) })),
    ...job.jobVariables.map((v) => ({ key: v.key, value: v.value, public: false, masked: false })),
  ]);
}

/** Environment#guess_tier from its name. */
export function environmentTier(name: string): string {
  const n = name.toLowerCase();
  if (/(dev|review|trunk)/.test(n)) return 'development';
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/.test(n)) return 'testing';
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/.test(n)) return 'staging';
  if (/(pr(o|)d|live)/.test(n)) return 'production';
  return 'other';
}
