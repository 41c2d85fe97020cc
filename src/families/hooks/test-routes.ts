// lib/api/hooks/trigger_test.rb (TestHooks::ProjectService) and lib/api/hooks/test.rb (a system
// hook's test): a sample built from the project's own data, with GitLab's message when there is
// none, sent to that hook alone while the caller waits (WebHookService#execute with `force`: a
// disabled hook too), once the request's write lock is released; the answer says how the
// receiver answered (422 with its body or the error when it failed) and the log keeps it.
import { log } from '../../git/history.js';
import { str, int } from '../../http/params.js';
import { created, json } from '../../http/route.js';
import { findNote, noteKey, noteList, type Note } from '../../store/notes.js';
import { plist, tvalues } from '../../store/table.js';
import type { Project } from '../../store/state.js';
import { branchTip, defaultBranchName, objectsOf, refsOf } from '../repositories/index.js';
import { issueByIid, type Issue } from '../issues/index.js';
import { route, type Context } from '../define.js';
import type { State } from '../world.js';
import { testTriggerError } from './errors.js';
import { rateLimited } from '../../core/errors.js';
import { pushData, type Json } from './payloads.js';
import { logSent, requestOf, takeLogId, type HookScope } from './queue.js';
import { deliver } from './dispatch.js';
import { allowsLocal, interpolatedUrl } from './rules.js';
import type { Reply } from '../../http/route.js';
import type { Hook } from './records.js';
import { foundHook, type HookPlace } from './routes.js';
import { issueData, mergeRequestData, noteData, requestEnv } from './subscribers.js';

/** The triggers a test takes, and the scope each sends as. */
const TRIGGERS: Record<string, HookScope> = {
  push_events: 'push_hooks',
  tag_push_events: 'tag_push_hooks',
  issues_events: 'issue_hooks',
  confidential_issues_events: 'confidential_issue_hooks',
  note_events: 'note_hooks',
  confidential_note_events: 'confidential_note_hooks',
  merge_requests_events: 'merge_request_hooks',
};

/** API::SystemHooks' sample for `POST /hooks/:hook_id`. */
const SYSTEM_SAMPLE = { event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' };

/** The highest iid the project's issues have: the sequence's, or past it a fixture's own iids. */
function topIid(state: State, projectId: number): number {
  let top = state.seq[`issue_iid:p${projectId}`] ?? 0;
  for (let iid = top + 1, misses = 0; misses < 64; iid++) {
    if (issueByIid(state, projectId, iid)) (top = iid), (misses = 0);
    else misses++;
  }
  return top;
}

function lastIssue(state: State, projectId: number): Issue | undefined {
  for (let iid = topIid(state, projectId); iid > 0; iid--) {
    const issue = issueByIid(state, projectId, iid);
    if (issue) return issue;
  }
  return undefined;
}

function lastMergeRequest(state: State, projectId: number) {
  return plist(state.mergeRequests, projectId).sort((a, b) => b.iid - a.iid)[0];
}

/** `project.notes.last`: the newest comment on the project's issues and merge requests. */
function lastNote(state: State, projectId: number): Note | undefined {
  let last: Note | undefined;
  const consider = (key: string) => {
    for (const n of noteList(state, key, 'comments')) if (!last || n.id > last.id) last = n;
  };
  for (let iid = topIid(state, projectId); iid > 0; iid--) {
    const issue = issueByIid(state, projectId, iid);
    if (issue) consider(noteKey('Issue', issue.id));
  }
  for (const mr of plist(state.mergeRequests, projectId)) consider(noteKey('MergeRequest', mr.id));
  return last && findNote(state, noteKey(last.noteableType, last.noteableId ?? 0), last.id);
}

/** TestHooks::ProjectService#data: the sample, or GitLab's message when the project has nothing to show. */
async function sample(ctx: Context<unknown>, project: Project, trigger: string): Promise<Json> {
  const user = ctx.user!;
  switch (trigger) {
    case 'push_events':
    case 'tag_push_events': {
      const branch = defaultBranchName(project);
      const tip = branchTip(refsOf(ctx.state, project.id), branch);
      if (!tip) throw testTriggerError('Ensure the project has at least one commit.');
      const repo = objectsOf(ctx, project);
      const commits = (await log(repo, [tip])).slice(0, 3).map((l) => l.sha);
      const data = await pushData(ctx.state, repo, project, user, { ref: branch, refType: 'branch', before: commits[commits.length - 1]!, after: commits[0]!, commits: [...commits].reverse(), totalCommits: commits.length }, ctx.webBase);
      return trigger === 'tag_push_events' ? { ...data, object_kind: 'tag_push', event_name: 'tag_push' } : data;
    }
    case 'issues_events':
    case 'confidential_issues_events': {
      const issue = lastIssue(ctx.state, project.id);
      if (!issue) throw testTriggerError('Ensure the project has issues.');
      return issueData(requestEnv(ctx), issue, user, 'open', null);
    }
    case 'note_events':
    case 'confidential_note_events': {
      const note = lastNote(ctx.state, project.id);
      if (!note) throw testTriggerError('Ensure the project has notes.');
      return noteData(requestEnv(ctx), note, user, trigger === 'confidential_note_events');
    }
    default: {
      const mr = lastMergeRequest(ctx.state, project.id);
      if (!mr) throw testTriggerError('Ensure the project has merge requests.');
      return mergeRequestData(requestEnv(ctx), mr, user, 'open', null);
    }
  }
}

/** Group#first_non_empty_project: the group's own first project (by id) whose repository has a branch. */
function firstNonEmptyProject(state: State, groupId: number): Project | undefined {
  let first: Project | undefined;
  for (const p of tvalues(state.projects)) {
    if (p.namespaceId !== groupId || p.pendingDelete || (first && first.id < p.id)) continue;
    if (refsOf(state, p.id).branches.size > 0) first = p;
  }
  return first;
}

/** ApplicationRateLimiter's `web_hook_test` and `web_hook_event_resend`: five a minute for each hook's parent and user (`check_rate_limit!`). */
export function checkHookRateLimit(ctx: Context<unknown>, name: 'web_hook_test' | 'web_hook_event_resend', hook: Hook): void {
  const parent = `${hook.kind}:${hook.ownerId ?? 'instance'}`;
  if (!ctx.env.throttle(name, `${parent}|user:${ctx.user?.id ?? 'anonymous'}`, { limit: 5, period_seconds: 60 })) throw rateLimited(60);
}

/**
 * Sends `data` to `hook` as its `scope` while the request waits, after its write lock is
 * released; `answer` makes the reply from whether the receiver took it (2xx) and what it said.
 */
function sendNow(ctx: Context<unknown>, hook: Hook, scope: HookScope, data: unknown, answer: (ok: boolean, message: string) => Reply): Reply {
  const id = ctx.update(takeLogId);
  const request = requestOf(ctx.state, hook, scope, id, id, ctx.webBase, JSON.stringify(data));
  const local = allowsLocal(ctx.state, hook.kind);
  const clock = ctx.env.clock;
  return {
    status: 201,
    continueWith: async () => {
      const started = clock.now();
      const outcome = await deliver(interpolatedUrl(hook), request, local);
      const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      return { reply: answer(ok, outcome.error ?? outcome.body), change: logSent(hook, scope, id, request, outcome, started, clock.now()) };
    },
  };
}

export function testRoutes(places: readonly HookPlace[]) {
  return places.flatMap((place) => {
    const common = { auth: place.auth, ...(place.scope ? { scope: place.scope } : {}), ...(place.tier ? { tier: place.tier } : {}) } as const;
    if (place.kind === 'system') {
      return [
        route({
          method: 'POST', path: `${place.base}/:hook_id`, ...common, params: { hook_id: int().required() },
          handler: (ctx) => {
            // API::SystemHooks: the sample is the answer, whatever the receiver did with it.
            return sendNow(ctx, foundHook(ctx, place, ctx.params.hook_id), 'system_hooks', SYSTEM_SAMPLE, () => created(SYSTEM_SAMPLE));
          },
        }),
      ];
    }
    return [
      route({
        method: 'POST', path: `${place.base}/:hook_id/test/:trigger`, ...common,
        params: { hook_id: int().required(), trigger: str().required().values(Object.keys(TRIGGERS)) },
        handler: async (ctx) => {
          const hook = foundHook(ctx, place, ctx.params.hook_id);
          checkHookRateLimit(ctx, 'web_hook_test', hook);
          // TestHooks::GroupService: the sample of the group's first project with commits.
          const project = place.kind === 'project' ? ctx.project : firstNonEmptyProject(ctx.state, ctx.group.id);
          if (!project) throw testTriggerError('Ensure the group has a project with commits.');
          const data = await sample(ctx, project, ctx.params.trigger);
          // API::Hooks::TriggerTest: 201 when the receiver answered 2xx, else 422 with its body or the error.
          return sendNow(ctx, hook, TRIGGERS[ctx.params.trigger]!, data, (ok, message) => (ok ? json({ message: '201 Created' }, 201) : json({ message }, 422)));
        },
      }),
    ];
  });
}
