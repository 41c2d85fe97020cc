// Push to create (Gitlab::GitAccessProject#ensure_project_on_push!): a push to a project that does
// not exist, in a namespace where the pusher may create projects, creates it, private, named by
// its path; git's first request (the receive-pack advertisement) is where it is made. It leaves
// GitLab's "The private project ... was successfully created." (Gitlab::Checks::ProjectCreated)
// for the post-receive of the pusher's next push to it that lands.
import { ApiError } from '../../core/errors.js';
import { abilitiesOf, plainError } from '../../http/git-access.js';
import { namespaceByIdOrPath } from '../../policy/paths.js';
import type { Context } from '../define.js';
import { addPostPushMessage, gitTarget, projectCreatedKey } from '../repositories/index.js';
import { canCreateProjectIn } from './rules.js';
import { newProject } from './service.js';

/** Gitlab::Checks::ProjectCreated#message (for HTTP: the remote is the project's http_url_to_repo). */
function projectCreatedMessage(fullPath: string, webBase: string): string {
  const web = `${webBase}/${fullPath}`;
  return `\nThe private project ${fullPath} was successfully created.\n\nTo configure the remote, run:\n  git remote add origin ${web}.git\n\nTo view the project, visit:\n  ${web}\n\n`;
}

const sentence = (field: string, message: string) => `${field.charAt(0).toUpperCase()}${field.slice(1).replace(/_/g, ' ')} ${message}`;

/**
 * The project a push to a path that names nothing creates, when the pusher may (true); otherwise
 * nothing (the caller then gets GitLab's "not found"). A wiki's path names no project to create.
 */
export function createProjectOnPush(ctx: Context<unknown>, path: string): boolean {
  const { caller } = ctx;
  const state = ctx.state;
  const now = ctx.now();
  const target = gitTarget(state, path);
  if (target.wiki) return false;
  const user = caller.user;
  if (target.project || !user || caller.method === 'job' || !abilitiesOf(caller).has('push_code')) return false;
  const slash = target.fullPath.lastIndexOf('/');
  if (slash <= 0) return false;
  const namespace = namespaceByIdOrPath(state, target.fullPath.slice(0, slash));
  if (!namespace || !canCreateProjectIn(state, user, namespace.id, now)) return false;
  const name = target.fullPath.slice(slash + 1);
  try {
    const change = newProject(state, user, { name, path: name, namespaceId: namespace.id, visibility: 'private', features: {}, settings: {} }, now);
    const project = ctx.update(change);
    const message = projectCreatedMessage(target.fullPath, ctx.webBase);
    ctx.update((draft) => addPostPushMessage(draft, projectCreatedKey(user.id, project.id), message, now));
    return true;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    // Projects::CreateService's errors, as the model's full messages.
    const body = e.body as { message?: unknown };
    const errors = typeof body?.message === 'object' && body.message !== null ? (body.message as Record<string, string[]>) : {};
    const messages = Object.entries(errors).flatMap(([field, list]) => list.map((m) => sentence(field, m)));
    throw plainError(422, `Could not create project: ${messages.join(', ') || String(body?.message ?? '')}`);
  }
}
