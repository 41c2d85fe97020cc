// POST /projects/:id/repository/commits (lib/api/commits.rb): many file actions as one commit.
// The actions are an array of hashes whose required keys depend on the action (Grape's `given`),
// so they are checked here, with Grape's messages, after the declared top-level parameters.
import { canPushToBranch, commitActions, personOf, type ActionKind, type CommitAction } from '../repositories/index.js';
import { commitDetail } from './entity.js';
import { projectWebUrl } from '../projects/index.js';
import { fullName } from '../namespaces/index.js';
import { commitStats } from '../../git/history.js';
import { fromBase64, utf8 } from '../../git/bytes.js';
import { forbidden, grapeError, malformedRequest, unauthorized } from '../../core/errors.js';
import { findProject } from '../../http/resolve.js';
import { LONE_SURROGATE, isHash } from '../../http/request-params.js';
import { any, bool, parseBoolean, str } from '../../http/params.js';
import { created, type Reply } from '../../http/route.js';
import { tget } from '../../store/table.js';
import type { Context } from '../define.js';

const ACTIONS: readonly ActionKind[] = ['create', 'update', 'move', 'delete', 'chmod'];

export const CREATE_COMMIT_PARAMS = {
  branch: str().required().notBlank(),
  commit_message: str().required(),
  actions: any().required(),
  start_branch: str(),
  start_sha: str(),
  start_project: any(),
  author_email: str(),
  author_name: str(),
  stats: bool().default(true),
  force: bool().default(false),
};

/** Grape's String coercion of a nested value: a hash or an array is invalid. */
function asString(v: unknown): string | undefined | null {
  if (v === undefined || v === null) return v as undefined | null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Grape's checks of `actions[]`, in its order and with its messages; the actions as the service takes them. */
export function parseActions(raw: unknown): CommitAction[] {
  let list: unknown[];
  if (Array.isArray(raw)) list = raw;
  else if (isHash(raw)) list = Object.values(raw);
  else throw grapeError(400, 'actions is invalid');
  const issues: string[] = [];
  const out: CommitAction[] = [];
  list.forEach((item, i) => {
    const name = (key: string) => `actions[${i}][${key}]`;
    if (!isHash(item)) {
      issues.push(`actions[${i}] is invalid`);
      return;
    }
    const has = (key: string) => Object.hasOwn(item, key);
    const text = (key: string): string | undefined => {
      const v = asString(has(key) ? item[key] : undefined);
      if (v === null) {
        if (item[key] !== null) issues.push(`${name(key)} is invalid`);
        return undefined;
      }
      return v;
    };
    const action = text('action');
    if (!has('action')) issues.push(`${name('action')} is missing`);
    if (isBlank(action)) issues.push(`${name('action')} is empty`);
    else if (!ACTIONS.includes(action as ActionKind)) issues.push(`${name('action')} does not have a valid value`);
    const path = text('file_path');
    if (!has('file_path') || item.file_path === null) issues.push(`${name('file_path')} is missing`);
    const kind = action as ActionKind;
    const previous = kind === 'move' ? text('previous_path') : undefined;
    if (kind === 'move' && previous === undefined) issues.push(`${name('previous_path')} is missing`);
    const content = kind === 'create' || kind === 'move' || kind === 'update' ? text('content') : undefined;
    if (kind === 'update' && content === undefined) issues.push(`${name('content')} is missing`);
    const encoding = text('encoding') ?? 'text';
    if (encoding !== 'text' && encoding !== 'base64') issues.push(`${name('encoding')} does not have a valid value`);
    const lastCommitId = kind === 'update' || kind === 'move' || kind === 'delete' ? text('last_commit_id') : undefined;
    let executable: boolean | undefined;
    if (kind === 'chmod') {
      const b = item.execute_filemode === null || item.execute_filemode === undefined ? undefined : parseBoolean(item.execute_filemode);
      if (b === undefined) issues.push(`${name('execute_filemode')} is missing`);
      else if (typeof b !== 'boolean') issues.push(`${name('execute_filemode')} is invalid`);
      else executable = b;
    }
    if (content !== undefined && (content.includes('\0') || LONE_SURROGATE.test(content))) throw malformedRequest();
    const a: CommitAction = { action: kind, path: path ?? '' };
    if (previous !== undefined) a.previousPath = previous;
    if (content !== undefined) a.content = encoding === 'base64' ? fromBase64(content) : utf8(content);
    if (executable !== undefined) a.executable = executable;
    if (lastCommitId !== undefined) a.lastCommitId = lastCommitId;
    out.push(a);
  });
  if (issues.length) throw grapeError(400, [...new Set(issues)].join(', '));
  return out;
}

type CreateParams = {
  branch: string;
  commit_message: string;
  actions: unknown;
  start_branch?: string;
  start_sha?: string;
  start_project?: unknown;
  author_email?: string;
  author_name?: string;
  stats: boolean;
  force: boolean;
};

export async function createCommit(ctx: Context<CreateParams>): Promise<Reply> {
  const p = ctx.params;
  if (p.start_branch !== undefined && p.start_sha !== undefined) throw grapeError(400, 'start_branch, start_sha are mutually exclusive');
  const actions = parseActions(p.actions);
  if (p.start_project !== undefined && p.start_project !== null) {
    const id = asString(p.start_project);
    if (id === null || id === undefined) throw grapeError(400, 'start_project is invalid');
    const start = findProject(ctx, id);
    // The emulator keeps no fork network: no project is forked from another.
    const ns = tget(ctx.state.namespaces, start.namespaceId)!;
    throw forbidden(`Project is not included in the fork network for ${fullName(ctx.state, ns)} / ${start.name}`);
  }
  const user = ctx.user;
  if (!user) throw unauthorized();
  // authorize_push_to_branch!: before the service, so a refusal is 403, not the service's 400.
  if (!canPushToBranch(ctx.state, user, ctx.project, p.branch, ctx.now())) throw forbidden('You are not allowed to push into this branch');
  const me = personOf(user);
  const now = ctx.now();
  const repo = ctx.env.git.repository(ctx.project.id);
  const outcome = await commitActions(repo, ctx.state, ctx.project, user, {
    branch: p.branch,
    startBranch: p.start_sha !== undefined ? p.start_branch : p.start_branch ?? p.branch,
    startSha: p.start_sha,
    force: p.force,
    message: p.commit_message,
    author: { name: p.author_name?.trim() || me.name, email: p.author_email?.trim() || me.email },
    committer: me,
    actions,
    now,
  });
  ctx.update(outcome.recipe);
  const ref = { sha: outcome.sha, commit: await repo.readCommit(outcome.sha) };
  const stats = p.stats ? await commitStats(repo, outcome.sha) : null;
  return created(commitDetail(projectWebUrl(ctx.state, ctx.project, ctx), ref, ctx.project.id, stats));
}
