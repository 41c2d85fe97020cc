// Push rules of projects and groups (ee/lib/api/project_push_rule.rb, group_push_rule.rb; Premium):
// a project's maintainers and a group's owners create, read, change and delete the one rule set.
import { grapeError, notFound, validationFailed } from '../../core/errors.js';
import { bool, int, str, type Parsed } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { ancestry } from '../../policy/access.js';
import { iso } from '../../render/time.js';
import { emptyTable, tdel, tget, tset, type Table } from '../../store/table.js';
import { sequences } from '../../store/state.js';
import { canOwnGroup } from '../groups/index.js';
import { canAdminProject } from '../projects/index.js';
import { registerPushCheck, registerWebCommitCheck } from '../repositories/index.js';
import { checkPushRule, checkWebCommit } from './checks.js';
import { defineFamily, group, project, route, type Context, type Family } from '../define.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';

const REGEXES = ['commit_message_regex', 'commit_message_negative_regex', 'branch_name_regex', 'author_email_regex', 'file_name_regex'] as const;
const FLAGS = ['deny_delete_tag', 'member_check', 'prevent_secrets', 'commit_committer_check', 'commit_committer_name_check', 'reject_unsigned_commits', 'reject_non_dco_commits'] as const;

const PARAMS = {
  ...Object.fromEntries(FLAGS.map((f) => [f, bool()])) as Record<(typeof FLAGS)[number], ReturnType<typeof bool>>,
  ...Object.fromEntries(REGEXES.map((r) => [r, str()])) as Record<(typeof REGEXES)[number], ReturnType<typeof str>>,
  max_file_size: int(),
};
const AT_LEAST_ONE = [{ kind: 'at_least_one_of' as const, names: [...FLAGS, ...REGEXES, 'max_file_size'] }];

type Given = Partial<Parsed<typeof PARAMS>>;

/** A push rule: GitLab's columns, by their API names. */
export interface PushRule {
  id: number;
  createdAt: number;
  flags: Record<(typeof FLAGS)[number], boolean>;
  regexes: Record<(typeof REGEXES)[number], string | null>;
  maxFileSize: number;
}

export interface PushRulesSlice {
  /** `project:<id>` or `group:<id>` -> its push rule. */
  pushRules: Table<PushRule>;
}

declare module '../world.js' {
  interface Slices extends PushRulesSlice {}
}

const ids = sequences(['push_rule']);

/** PushRule's validations: each regex compiles (untrusted_regexp), the size is not negative. */
function validate(rule: PushRule): void {
  const errors: Record<string, string[]> = {};
  for (const r of REGEXES) {
    const source = rule.regexes[r];
    if (source === null) continue;
    try {
      new RegExp(source);
    } catch {
      errors[r] = ['not valid RE2 syntax: invalid regular expression'];
    }
  }
  if (rule.maxFileSize < 0) errors.max_file_size = ['must be greater than or equal to 0'];
  if (Object.keys(errors).length) throw validationFailed(errors);
}

function applied(rule: PushRule, p: Given): PushRule {
  const next: PushRule = { ...rule, flags: { ...rule.flags }, regexes: { ...rule.regexes } };
  for (const f of FLAGS) if (p[f] !== undefined) next.flags[f] = p[f]!;
  for (const r of REGEXES) if (p[r] !== undefined) next.regexes[r] = p[r] === '' ? null : p[r]!;
  if (p.max_file_size !== undefined) next.maxFileSize = p.max_file_size;
  return next;
}

function entity(rule: PushRule, projectId?: number) {
  return {
    id: rule.id,
    ...(projectId !== undefined ? { project_id: projectId } : {}),
    created_at: iso(rule.createdAt),
    commit_message_regex: rule.regexes.commit_message_regex,
    commit_message_negative_regex: rule.regexes.commit_message_negative_regex,
    branch_name_regex: rule.regexes.branch_name_regex,
    deny_delete_tag: rule.flags.deny_delete_tag,
    member_check: rule.flags.member_check,
    prevent_secrets: rule.flags.prevent_secrets,
    author_email_regex: rule.regexes.author_email_regex,
    file_name_regex: rule.regexes.file_name_regex,
    max_file_size: rule.maxFileSize,
    commit_committer_check: rule.flags.commit_committer_check,
    commit_committer_name_check: rule.flags.commit_committer_name_check,
    reject_unsigned_commits: rule.flags.reject_unsigned_commits,
    reject_non_dco_commits: rule.flags.reject_non_dco_commits,
  };
}

type Owner = { key: string; projectId?: number; exists: string };
const projectOwner = (ctx: Context<unknown>): Owner => ({ key: `project:${ctx.project.id}`, projectId: ctx.project.id, exists: 'Project push rule exists' });
const groupOwner = (ctx: Context<unknown>): Owner => ({ key: `group:${ctx.group.id}`, exists: 'Group push rule exists' });

function ownerRoutes(base: string, scope: ReturnType<typeof project>, ownerOf: (ctx: Context<unknown>) => Owner) {
  const existing = (ctx: Context<unknown>) => {
    const rule = tget(ctx.state.pushRules, ownerOf(ctx).key);
    if (!rule) throw notFound('Push Rule');
    return rule;
  };
  const common = { auth: 'user' as const, scope, tier: 'premium' as const };
  return [
    route({
      method: 'GET', path: `${base}/:id/push_rule`, ...common,
      handler: (ctx) => {
        const rule = tget(ctx.state.pushRules, ownerOf(ctx).key);
        return json(rule ? entity(rule, ownerOf(ctx).projectId) : null);
      },
    }),
    route({
      method: 'POST', path: `${base}/:id/push_rule`, ...common, params: PARAMS, constraints: AT_LEAST_ONE,
      handler: (ctx) => {
        const owner = ownerOf(ctx);
        if (tget(ctx.state.pushRules, owner.key)) throw grapeError(422, owner.exists);
        const blank: PushRule = {
          id: 0, createdAt: ctx.now(), maxFileSize: 0,
          flags: Object.fromEntries(FLAGS.map((f) => [f, false])) as PushRule['flags'],
          regexes: Object.fromEntries(REGEXES.map((r) => [r, null])) as PushRule['regexes'],
        };
        const rule = applied(blank, ctx.params);
        validate(rule);
        const made = ctx.update((draft) => {
          const r = { ...rule, id: ids.next(draft, 'push_rule') };
          tset((draft as State).pushRules, owner.key, r);
          return r;
        });
        return created(entity(made, owner.projectId));
      },
    }),
    route({
      method: 'PUT', path: `${base}/:id/push_rule`, ...common, params: PARAMS, constraints: AT_LEAST_ONE,
      handler: (ctx) => {
        const owner = ownerOf(ctx);
        const rule = applied(existing(ctx), ctx.params);
        validate(rule);
        ctx.update((draft) => tset((draft as State).pushRules, owner.key, rule));
        return json(entity(rule, owner.projectId));
      },
    }),
    route({
      method: 'DELETE', path: `${base}/:id/push_rule`, ...common,
      handler: (ctx) => {
        existing(ctx);
        ctx.update((draft) => void tdel((draft as State).pushRules, ownerOf(ctx).key));
        return noContent();
      },
    }),
  ];
}

/**
 * EE Projects::CreateService#create_predefined_push_rule: a project made under a group (through
 * the API, a fork or a push that creates it) starts with a copy of the push rule of the nearest
 * group up its namespace's ancestry that has one (Group#predefined_push_rule). A copy: changing
 * or deleting the group's rule later leaves the project's as it is. Only where the tier has push
 * rules; the instance's sample rule (PushRule.global) has no API here, so a project in a user's
 * namespace starts with none.
 */
function copyGroupRule(ctx: Context<unknown>, e: StoredEvent<'project.created'>): void {
  const state = ctx.state as State;
  if (state.instance.tier === 'free') return;
  const made = tget(state.projects, e.projectId);
  if (!made || tget(state.pushRules, `project:${made.id}`)) return;
  const rule = ancestry(state, made.namespaceId).filter((ns) => ns.kind === 'group').map((g) => tget(state.pushRules, `group:${g.id}`)).find((r) => r !== undefined);
  if (!rule) return;
  const createdAt = ctx.now();
  ctx.update((draft) => void tset((draft as State).pushRules, `project:${made.id}`, { ...rule, flags: { ...rule.flags }, regexes: { ...rule.regexes }, id: ids.next(draft, 'push_rule'), createdAt }));
}

// A project's push rule applies to every push to its repository where the tier has push rules (Premium).
registerPushCheck((c, cmd, objects) => {
  if (c.state.instance.tier === 'free') return null;
  const rule = tget(c.state.pushRules, `project:${c.project.id}`);
  return rule ? checkPushRule(c, rule, cmd, objects) : null;
});
registerWebCommitCheck((c, branch, sha, repo) => {
  if (c.state.instance.tier === 'free') return null;
  const rule = tget(c.state.pushRules, `project:${c.project.id}`);
  return rule ? checkWebCommit(c, rule, branch, sha, repo) : null;
});

export const pushRules: Family<PushRulesSlice> = defineFamily({
  name: 'push-rules',
  state: () => ({ pushRules: emptyTable() }),
  routes: [...ownerRoutes('/projects', project(canAdminProject), projectOwner), ...ownerRoutes('/groups', group(canOwnGroup), groupOwner)],
  on: { 'project.created': copyGroupRule },
  forget: {
    project: (draft, id) => void tdel((draft as State).pushRules, `project:${id}`),
    group: (draft, id) => void tdel((draft as State).pushRules, `group:${id}`),
  },
});
