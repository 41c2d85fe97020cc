// Projects as GitLab renders them (lib/api/entities/project_identity.rb, basic_project_details.rb,
// project_details.rb, project.rb, project_with_access.rb), CE fields in emission order.
// Anonymous viewers get ProjectDetails; members and admins the full entity.
import { ACCESS, type Project, type User } from '../../store/state.js';
import type { State } from '../world.js';
import { derived, tget, tvalues, type Table } from '../../store/table.js';
import { membershipOf, sharesOf, sharesVersion } from '../../store/members.js';
import { ancestry, canReadGroup, canReadProject, canUseFeature, groupAccess, projectAccess } from '../../policy/access.js';
import { cachedJson, type Fragment } from '../../render/cache.js';
import { isEmptyRepository, refsOf, repositoryStorageOf } from '../repositories/index.js';
import { fullName, namespaceBasic } from '../namespaces/index.js';
import { iso } from '../../render/time.js';
import { userBasic, type UrlBase } from '../users/index.js';
import { avatarOf, avatarUrl } from '../avatars/index.js';

export interface ProjectView extends UrlBase {
  state: State;
  viewer: User | null;
  now: number;
}

const hostOf = (webBase: string): string => new URL(webBase).host;

/**
 * Gitlab.config.gitlab_shell.ssh_path_prefix: `git@<ssh host>:` while SSH is on port 22, which
 * is GitLab's default whatever port the web answers on (the ssh host is the web host's name).
 */
function sshPathPrefix(webBase: string): string {
  return `git@${new URL(webBase).hostname}:`;
}

/** `access` is the viewer's access level, when the caller has computed it already. */
const featureAvailable = (v: ProjectView, project: Project, feature: string, access?: number) =>
  canUseFeature(v.state, v.viewer, project, feature, v.now, access);

export function projectPaths(state: State, project: Project) {
  const ns = tget(state.namespaces, project.namespaceId)!;
  return { ns, fullPath: `${ns.fullPath}/${project.path}` };
}

export function projectWebUrl(state: State, project: Project, u: UrlBase): string {
  return `${u.webBase}/${projectPaths(state, project).fullPath}`;
}

export function projectIdentity(v: ProjectView, project: Project) {
  const { ns, fullPath } = projectPaths(v.state, project);
  return {
    id: project.id,
    description: project.description === '' ? null : project.description,
    name: project.name,
    name_with_namespace: `${fullName(v.state, ns)} / ${project.name}`,
    path: project.path,
    path_with_namespace: fullPath,
    created_at: iso(project.createdAt),
  };
}

/** Project id -> how many projects were forked from it (the forks family's relation). */
function forkCounts(links: Table<{ forkedFromId: number }>): Map<number, number> {
  const out = new Map<number, number>();
  for (const l of tvalues(links)) out.set(l.forkedFromId, (out.get(l.forkedFromId) ?? 0) + 1);
  return out;
}

/** `forked_from_project`: the project it was forked from, to those who may read it (the forks family keeps the relation). */
function forkedFrom(v: ProjectView, project: Project) {
  const link = tget(v.state.forkLinks, project.id);
  const source = link ? tget(v.state.projects, link.forkedFromId) : undefined;
  return source && !source.pendingDelete && canReadProject(v.state, v.viewer, source, v.now) ? { forked_from_project: basicProjectDetails(v, source) } : {};
}

/** BasicProjectDetails: lists for anonymous callers and `simple=true`. */
export function basicProjectDetails(v: ProjectView, project: Project, access?: number) {
  const { ns, fullPath } = projectPaths(v.state, project);
  const readCode = featureAvailable(v, project, 'repository', access);
  const web = `${v.webBase}/${fullPath}`;
  const topics = [...project.topics].sort();
  return {
    ...projectIdentity(v, project),
    ...(readCode ? { default_branch: project.defaultBranch ?? 'main' } : {}),
    tag_list: topics,
    topics,
    ssh_url_to_repo: `${sshPathPrefix(v.webBase)}${fullPath}.git`,
    http_url_to_repo: `${web}.git`,
    web_url: web,
    ...(readCode ? { readme_url: null, forks_count: derived(v.state.forkLinks, forkCounts).get(project.id) ?? 0 } : {}),
    avatar_url: avatarUrl(v.state, v.webBase, 'project', project.id),
    star_count: project.starCount,
    last_activity_at: iso(project.lastActivityAt),
    visibility: project.visibility,
    namespace: namespaceBasic(v.state, ns, v),
  };
}

function memberAccess(level: number) {
  return level > ACCESS.none ? { access_level: level, notification_level: 3 } : null;
}

/** Project (POST/PUT responses, group project lists); with `permissions` for ProjectWithAccess. */
export function projectEntity(v: ProjectView, project: Project, opts: { permissions?: boolean } = {}) {
  const { ns } = projectPaths(v.state, project);
  const api = `${v.webBase}/api/v4/projects/${project.id}`;
  const access = projectAccess(v.state, v.viewer, project, v.now);
  const can = (f: string) => featureAvailable(v, project, f, access);
  const admin = !!v.viewer?.admin || access >= ACCESS.maintainer;
  const owner = ns.kind === 'user' && ns.ownerId !== null ? tget(v.state.users, ns.ownerId) : undefined;
  const f = project.features;
  const s = project.settings;
  const pick = <T>(key: string, fallback: T): T => (key in s ? (s[key] as T) : fallback);
  const entity = {
    ...basicProjectDetails(v, project, access),
    container_registry_image_prefix: `registry.${hostOf(v.webBase)}/${projectPaths(v.state, project).fullPath.toLowerCase()}`,
    _links: {
      self: api,
      ...(can('issues') ? { issues: `${api}/issues` } : {}),
      ...(can('merge_requests') ? { merge_requests: `${api}/merge_requests` } : {}),
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
    marked_for_deletion_at: null,
    marked_for_deletion_on: null,
    packages_enabled: pick('packages_enabled', true),
    empty_repo: isEmptyRepository(refsOf(v.state, project.id)),
    archived: project.archived,
    ...(owner ? { owner: userBasic(owner, v) } : {}),
    ...forkedFrom(v, project),
    resolve_outdated_diff_discussions: pick('resolve_outdated_diff_discussions', false),
    repository_object_format: 'sha1',
    issues_enabled: can('issues'),
    merge_requests_enabled: can('merge_requests'),
    wiki_enabled: can('wiki'),
    jobs_enabled: can('builds'),
    snippets_enabled: can('snippets'),
    container_registry_enabled: can('container_registry'),
    service_desk_enabled: false,
    ...(access >= ACCESS.reporter || v.viewer?.admin ? { service_desk_address: null } : {}),
    can_create_merge_request_in: access >= ACCESS.guest || !!v.viewer?.admin,
    issues_access_level: f.issues,
    repository_access_level: f.repository,
    merge_requests_access_level: f.merge_requests,
    forking_access_level: f.forking,
    wiki_access_level: f.wiki,
    builds_access_level: f.builds,
    snippets_access_level: f.snippets,
    pages_access_level: project.visibility === 'public' ? f.pages : f.pages === 'enabled' ? 'private' : f.pages,
    analytics_access_level: f.analytics,
    container_registry_access_level: f.container_registry,
    security_and_compliance_access_level: f.security_and_compliance === 'enabled' ? 'private' : f.security_and_compliance,
    releases_access_level: f.releases,
    environments_access_level: f.environments,
    feature_flags_access_level: f.feature_flags,
    infrastructure_access_level: f.infrastructure,
    monitor_access_level: f.monitor,
    model_experiments_access_level: f.model_experiments,
    model_registry_access_level: f.model_registry,
    package_registry_access_level: pick('packages_enabled', true) ? 'enabled' : 'disabled',
    emails_disabled: !pick('emails_enabled', true),
    emails_enabled: pick('emails_enabled', true),
    show_diff_preview_in_email: true,
    shared_runners_enabled: pick('shared_runners_enabled', true),
    lfs_enabled: pick('lfs_enabled', true),
    creator_id: project.creatorId,
    ...(admin ? { import_url: null, import_type: null } : {}),
    import_status: 'none',
    ...(admin ? { import_error: null } : {}),
    ...(can('issues') ? { open_issues_count: pick('open_issues_count', 0) } : {}),
    description_html: pick('description_html', ''),
    updated_at: iso(project.updatedAt),
    ...(admin
      ? {
          ci_default_git_depth: pick('ci_default_git_depth', 20),
          ci_delete_pipelines_in_seconds: null,
          ci_forward_deployment_enabled: true,
          ci_forward_deployment_rollback_allowed: true,
          ci_job_token_scope_enabled: false,
          ci_separated_caches: true,
          ci_allow_fork_pipelines_to_run_in_parent_project: true,
          ci_id_token_sub_claim_components: ['project_path', 'ref_type', 'ref'],
          build_git_strategy: pick('build_git_strategy', 'fetch'),
          keep_latest_artifact: true,
          restrict_user_defined_variables: false,
          ci_pipeline_variables_minimum_override_role: 'developer',
          runner_token_expiration_interval: null,
          group_runners_enabled: pick('group_runners_enabled', true),
          resource_group_default_process_mode: 'unordered',
          auto_cancel_pending_pipelines: pick('auto_cancel_pending_pipelines', 'enabled'),
          build_timeout: pick('build_timeout', 3600),
          auto_devops_enabled: pick('auto_devops_enabled', true),
          auto_devops_deploy_strategy: pick('auto_devops_deploy_strategy', 'continuous'),
          ci_push_repository_for_job_token_allowed: false,
          protect_merge_request_pipelines: false,
          ci_display_pipeline_variables: false,
          // Project#runners_token: none while registration tokens are off (allow_runner_registration_token), else the
          // token as the CI family keeps it once reset (read from that family's slice, which sits above this one).
          runners_token: !v.state.runnerRegistration.allowed ? null : tget(v.state.runnerRegistration.tokens, `project:${project.id}`) ?? `GR1348941${String(project.id).padStart(20, '0')}`,
        }
      : {}),
    ...(can('repository') ? { ci_config_path: pick('ci_config_path', null) } : {}),
    public_jobs: pick('public_jobs', true),
    shared_with_groups: sharedWithGroups(v, project),
    only_allow_merge_if_pipeline_succeeds: pick('only_allow_merge_if_pipeline_succeeds', false),
    // EE's merge pipelines and merge trains settings, where the license has them.
    ...(v.state.instance.tier !== 'free' ? { merge_pipelines_enabled: pick('merge_pipelines_enabled', false), merge_trains_enabled: pick('merge_trains_enabled', false), merge_trains_skip_train_allowed: pick('merge_trains_skip_train_allowed', false) } : {}),
    allow_merge_on_skipped_pipeline: pick('allow_merge_on_skipped_pipeline', null),
    request_access_enabled: pick('request_access_enabled', true),
    only_allow_merge_if_all_discussions_are_resolved: pick('only_allow_merge_if_all_discussions_are_resolved', false),
    remove_source_branch_after_merge: pick('remove_source_branch_after_merge', true),
    printing_merge_request_link_enabled: pick('printing_merge_request_link_enabled', true),
    merge_method: pick('merge_method', 'merge'),
    squash_option: pick('squash_option', 'default_off'),
    enforce_auth_checks_on_uploads: true,
    suggestion_commit_message: pick('suggestion_commit_message', null),
    merge_commit_template: pick('merge_commit_template', null),
    squash_commit_template: pick('squash_commit_template', null),
    mr_default_title_template: null,
    issue_branch_template: pick('issue_branch_template', null),
    warn_about_potentially_unwanted_characters: true,
    autoclose_referenced_issues: pick('autoclose_referenced_issues', true),
    max_artifacts_size: null,
    // change_repository_storage: administrators.
    ...(v.viewer?.admin ? { repository_storage: repositoryStorageOf(v.state, 'project', project.id) } : {}),
  };
  if (!opts.permissions) return entity;
  const direct = v.viewer ? membershipOf(v.state, project, v.viewer.id)?.accessLevel ?? (owner?.id === v.viewer.id ? ACCESS.owner : 0) : 0;
  const inherited = v.viewer && ns.kind === 'group' ? groupAccess(v.state, v.viewer, ns, v.now) : 0;
  return { ...entity, permissions: { project_access: memberAccess(direct), group_access: memberAccess(inherited) } };
}

/** SharedGroupWithProject: the groups the project is shared with that the viewer may see. */
function sharedWithGroups(v: ProjectView, project: Project) {
  const out: unknown[] = [];
  for (const share of sharesOf(v.state, project)) {
    const g = tget(v.state.namespaces, share.groupId);
    if (!g || !canReadGroup(v.state, v.viewer, g, v.now)) continue;
    out.push({ group_id: g.id, group_name: g.name, group_full_path: g.fullPath, group_access_level: share.groupAccess, expires_at: share.expiresAt });
  }
  return out;
}

export type ProjectRendering = 'basic' | 'project' | 'with-access';

/** The rendered JSON of one project for this viewer, reused while nothing it reads has changed. */
export function projectJson(v: ProjectView, project: Project, rendering: ProjectRendering): Fragment {
  const access = projectAccess(v.state, v.viewer, project, v.now);
  const chain = ancestry(v.state, project.namespaceId);
  const owner = chain[0]?.kind === 'user' && chain[0].ownerId !== null ? tget(v.state.users, chain[0].ownerId) : undefined;
  const membership = v.viewer ? membershipOf(v.state, project, v.viewer.id) : undefined;
  const shares = sharesVersion(v.state, project);
  const invited = shares ? Array.from(sharesOf(v.state, project), (s) => tget(v.state.namespaces, s.groupId)) : [];
  const storage = v.viewer?.admin ? repositoryStorageOf(v.state, 'project', project.id) : '';
  return cachedJson(project, `${rendering}|${v.viewer?.id ?? 0}|${access}|${v.webBase}|${storage}`, [...chain, owner, v.viewer, membership, shares, ...invited, avatarOf(v.state, 'project', project.id), v.state.forkLinks], () =>
    rendering === 'basic' ? basicProjectDetails(v, project, access) : projectEntity(v, project, { permissions: rendering === 'with-access' }),
  );
}
