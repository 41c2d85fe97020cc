// What a pipeline of one ref, source and set of variables gets from the checked jobs: GitLab's
// logical checks (YamlProcessor: stages, needs, dependencies, on_stop, cycles), then
// `workflow:rules`, each job's `rules` or `only`/`except` (Build::Rules, Build::Policy), and the
// needs of the jobs kept (Seed::Build).
import { globMatch } from './globs.js';
import { fabricatePattern, holds, type Variables } from './expression.js';
import { inheritAllows, type JobSpec, type NeedSpec, type PolicySpec, type RuleSpec } from './entries.js';
import { expandVariables, newHash } from './load.js';
import type { CompileInput, JobPlan, When } from './types.js';

/** One job after `parallel` expansion (Config::Normalizer). */
export interface Instance {
  name: string;
  job: JobSpec;
  variables: Record<string, string>;
  needs: NeedSpec[] | null;
  dependencies: string[] | null;
}

export const RULES_FAILURE = 'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.';
export const WORKFLOW_FAILURE = 'Pipeline filtered out by workflow rules.';

/** Normalizer: instances named `job 1/3` or `job: [a, b]`; a need or dependency on a parallel job names all its instances. */
export function normalize(jobs: JobSpec[]): Instance[] {
  const byName = new Map<string, string[]>();
  for (const j of jobs) byName.set(j.name, j.instances ? j.instances.map((i) => i.name) : [j.name]);
  const expandNeeds = (needs: NeedSpec[] | null): NeedSpec[] | null =>
    needs && needs.flatMap((n) => (byName.get(n.name) ?? [n.name]).map((name) => ({ ...n, name })));
  const out: Instance[] = [];
  for (const job of jobs) {
    const needs = expandNeeds(job.needs);
    const dependencies = job.dependencies && job.dependencies.flatMap((d) => byName.get(d) ?? [d]);
    const rules = job.rules?.map((r) => ({ ...r, needs: expandNeeds(r.needs) })) ?? null;
    const expanded = { ...job, rules };
    if (job.instances) for (const i of job.instances) out.push({ name: i.name, job: expanded, variables: { ...job.variables, ...i.variables }, needs, dependencies });
    else out.push({ name: job.name, job: expanded, variables: job.variables, needs, dependencies });
  }
  return out;
}

/** YamlProcessor#run_logical_validations!: the first problem found, as GitLab words it. */
export function logicalError(stages: string[], instances: Instance[]): string | null {
  const byName = new Map(instances.map((i) => [i.name, i]));
  const stageIdx = (name: string) => {
    const i = byName.get(name);
    return i ? stages.indexOf(i.job.stage) : -1;
  };
  const dependency = (name: string, dep: string, type: string, optional = false): string | null => {
    if (!byName.has(dep)) return optional ? null : `${name} job: undefined ${type}: ${dep}`;
    const d = stageIdx(dep);
    if (d < 0 || d > stageIdx(name)) return `${name} job: ${type} ${dep} is not defined in current or prior stages`;
    return null;
  };
  const needsSpec = (name: string, needs: NeedSpec[] | null): string | null => {
    if (!needs) return null;
    for (const n of needs) {
      const e = dependency(name, n.name, 'need', n.optional);
      if (e) return e;
    }
    const counts = new Map<string, number>();
    for (const n of needs) counts.set(n.name, (counts.get(n.name) ?? 0) + 1);
    const dup = [...counts].filter(([, c]) => c > 1).map(([n]) => n);
    return dup.length ? `${name} has the following needs duplicated: ${dup.join(', ')}.` : null;
  };
  for (const inst of instances) {
    const { name, job } = inst;
    if (!stages.includes(job.stage)) return `${name} job: chosen stage ${job.stage} does not exist; available stages are ${stages.join(', ')}`;
    for (const d of inst.dependencies ?? []) {
      const e = dependency(name, d, 'dependency');
      if (e) return e;
    }
    const e = needsSpec(name, inst.needs) ?? job.rules?.map((r) => needsSpec(name, r.needs)).find((x) => x) ?? null;
    if (e) return e;
    const stop = job.environment?.onStop;
    if (job.environment && stop) {
      const other = byName.get(stop);
      if (!other) return `${name} job: on_stop job ${stop} is not defined`;
      if (!other.job.environment) return `${name} job: on_stop job ${stop} does not have environment defined`;
      if (other.job.environment.name !== job.environment.name) return `${name} job: on_stop job ${stop} have different environment name`;
      if (other.job.environment.action !== 'stop') return `${name} job: on_stop job ${stop} needs to have action stop defined`;
    }
  }
  const cycle = cycleError(instances);
  return cycle ? `The pipeline has circular dependencies: ${cycle}` : null;
}

/**
 * YamlProcessor::Dag: Ruby's TSort over the jobs (in file order) and their needs (in order). A
 * job that needs itself is named; otherwise the first strongly connected component of more than
 * one job, in the order Tarjan's algorithm leaves them on its stack.
 */
function cycleError(instances: Instance[]): string | null {
  const edges = new Map(instances.map((i) => [i.name, (i.needs ?? []).map((n) => n.name)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let counter = 0;
  const visit = (node: string): string | null => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const child of edges.get(node) ?? []) {
      if (child === node) return `self-dependency: ${node}`;
      if (!edges.has(child)) continue;
      if (!index.has(child)) {
        const e = visit(child);
        if (e) return e;
        low.set(node, Math.min(low.get(node)!, low.get(child)!));
      } else if (onStack.has(child)) low.set(node, Math.min(low.get(node)!, index.get(child)!));
    }
    if (low.get(node) === index.get(node)) {
      const component = stack.splice(stack.indexOf(node));
      for (const c of component) onStack.delete(c);
      if (component.length > 1) return `topological sort failed: [${component.map((c) => JSON.stringify(c)).join(', ')}]`;
    }
    return null;
  };
  for (const node of edges.keys()) {
    if (index.has(node)) continue;
    const e = visit(node);
    if (e) return e;
  }
  return null;
}

interface Ctx {
  input: CompileInput;
  ref: string;
  tag: boolean;
  branch: boolean;
}

function contextOf(input: CompileInput): Ctx {
  const v = input.variables;
  const tag = !!v.CI_COMMIT_TAG;
  const ref = v.CI_COMMIT_TAG || v.CI_COMMIT_BRANCH || v.CI_COMMIT_REF_NAME || '';
  // A merge request pipeline runs on refs/merge-requests/:iid/head: neither a branch nor a tag.
  const branch = !tag && input.source !== 'merge_request_event' && !!(v.CI_COMMIT_BRANCH || v.CI_COMMIT_REF_NAME);
  return { input, ref, tag, branch };
}

/** Rules::Rule::Clause::ParseError: a rule that cannot be evaluated (a `compare_to` that names no commit). */
export class RuleParseError extends Error {}

const changed = (globs: string[], ctx: Ctx, vars: Variables, compareTo: string | null = null): boolean => {
  let paths = ctx.input.changedPaths;
  if (compareTo !== null && ctx.input.changedSince) {
    const since = ctx.input.changedSince(expandVariables(compareTo, vars));
    if (since === null) throw new RuleParseError('rules:changes:compare_to is not a valid ref');
    paths = since;
  }
  if (paths === undefined) return true;
  const expanded = globs.map((g) => expandVariables(g, vars));
  return paths.some((p) => expanded.some((g) => globMatch(g, p)));
};

const exists = (globs: string[], ctx: Ctx, vars: Variables): boolean => {
  const expanded = globs.map((g) => expandVariables(g, vars));
  const paths = ctx.input.paths();
  return expanded.some((g) => (g.includes('*') || g.includes('?') || g.includes('[') || g.includes('{') ? paths.some((p) => globMatch(g, p)) : paths.includes(g.replace(/^\/+/, ''))));
};

/** Build::Rules: the first rule whose clauses all hold; none matching is `never`. */
function matchRule(rules: RuleSpec[], ctx: Ctx, vars: Variables): RuleSpec | null {
  for (const r of rules) {
    if (r.if && !holds(r.if, vars)) continue;
    if (r.changes && !changed(r.changes, ctx, vars, r.compareTo)) continue;
    if (r.exists && !exists(r.exists, ctx, vars)) continue;
    return r;
  }
  return null;
}

/** Build::Policy::Refs#matches_pattern?. */
function refMatches(pattern: string, ctx: Ctx): boolean {
  const source = ctx.input.source.replace(/_event$/, '');
  if (ctx.tag && pattern === 'tags') return true;
  if (ctx.branch && pattern === 'branches') return true;
  // ActiveSupport's pluralize: push -> pushes, merge_request -> merge_requests, schedule -> schedules.
  const plural = /(s|sh|ch|x)$/.test(source) ? `${source}es` : `${source}s`;
  if (pattern === source || pattern === plural) return true;
  if (!ctx.branch && !ctx.tag) return false;
  const re = /^\/.+\/[ismU]*$/s.test(pattern) ? fabricatePattern(pattern) : null;
  return re ? re.test(ctx.ref) : pattern === ctx.ref;
}

function policySatisfied(p: PolicySpec, ctx: Ctx, vars: Variables): boolean {
  // Every kind given must hold (Build::Policy); within a kind any one entry does.
  if (p.refs) {
    const projectPath = ctx.input.variables.CI_PROJECT_PATH;
    const ok = p.refs.some((r) => {
      const at = r.lastIndexOf('@');
      const isRe = /^\/.+\/[ismU]*$/s.test(r);
      const [pattern, path] = !isRe && at > 0 ? [r.slice(0, at), r.slice(at + 1)] : [r, undefined];
      return (path === undefined || path === projectPath) && refMatches(pattern, ctx);
    });
    if (!ok) return false;
  }
  if (p.variables && !p.variables.some((e) => holds(e, vars))) return false;
  if (p.changes && !changed(p.changes, ctx, vars)) return false;
  if (p.kubernetes) return false;
  return true;
}

function policyAny(p: PolicySpec, ctx: Ctx, vars: Variables): boolean {
  // `except`: the job is left out when its policy is satisfied the way `only` is.
  return policySatisfied(p, ctx, vars);
}

/**
 * The variables a job's rules see (Ci::Variables::Builder#scoped_variables): predefined ones
 * (`CI_*`, `GITLAB_*`, the job's own name and stage), then the file's, then the user's (instance,
 * group, project, pipeline), each over the one before.
 */
export function scoped(input: CompileInput, yaml: Record<string, string>, job?: { name: string; stage: string }): Record<string, string> {
  const predefined = newHash() as Record<string, string>;
  const user = newHash() as Record<string, string>;
  for (const [k, v] of Object.entries(input.variables)) ((/^(CI|GITLAB)_|^CI$|^GITLAB_CI$/.test(k)) ? predefined : user)[k] = v;
  if (job) Object.assign(predefined, { CI_JOB_NAME: job.name, CI_JOB_STAGE: job.stage });
  return Object.assign(predefined, yaml, user);
}

export interface Selection {
  created: boolean;
  errors: string[];
  jobs: JobPlan[];
}

export function select(stages: string[], globals: Record<string, string>, workflowRules: RuleSpec[] | null, instances: Instance[], input: CompileInput): Selection & { workflowVariables: Record<string, string> } {
  const ctx = contextOf(input);
  let workflowVariables: Record<string, string> = newHash() as Record<string, string>;
  if (workflowRules) {
    let rule: RuleSpec | null;
    try {
      rule = matchRule(workflowRules, ctx, scoped(input, globals));
    } catch (e) {
      // EvaluateWorkflowRules: a rule that cannot be read keeps the pipeline from being made, saying nothing more.
      if (!(e instanceof RuleParseError)) throw e;
      rule = null;
    }
    if (!rule || rule.when === 'never') return { created: false, errors: [WORKFLOW_FAILURE], jobs: [], workflowVariables };
    workflowVariables = rule.variables ?? workflowVariables;
  }
  const ruleErrors: string[] = [];
  const kept: { inst: Instance; when: Exclude<When, 'never'>; startIn: number | null; allowFailure: boolean; vars: Record<string, string>; needs: NeedSpec[] | null; interruptible: boolean }[] = [];
  for (const inst of instances) {
    const job = inst.job;
    const base = newHash() as Record<string, string>;
    for (const [k, v] of Object.entries(globals)) if (inheritAllows(job.inheritVariables, k)) base[k] = v;
    for (const [k, v] of Object.entries(workflowVariables)) if (inheritAllows(job.inheritVariables, k)) base[k] = v;
    const vars: Record<string, string> = { ...base, ...job.ownVariables, ...(inst.variables === job.variables ? {} : inst.variables) };
    const evalVars = scoped(input, vars, { name: inst.name, stage: job.stage });
    let when = job.when;
    let startIn = job.startIn;
    let allowFailure = job.allowFailure;
    let needs = inst.needs;
    let interruptible = job.interruptible;
    if (job.rules) {
      let rule: RuleSpec | null;
      try {
        rule = matchRule(job.rules, ctx, evalVars);
      } catch (e) {
        // Seed::Build: the job is left out (`when: never`) and the pipeline fails with why.
        if (!(e instanceof RuleParseError)) throw e;
        ruleErrors.push(`Failed to parse rule for ${inst.name}: ${e.message}`);
        continue;
      }
      if (!rule) continue;
      when = rule.when ?? job.when;
      if (when === 'never') continue;
      if (rule.startIn !== null) startIn = rule.startIn;
      if (rule.allowFailure !== null) allowFailure = rule.allowFailure;
      if (rule.variables) Object.assign(vars, rule.variables);
      if (rule.needs) needs = rule.needs;
      if (rule.interruptible !== null) interruptible = rule.interruptible;
    } else {
      if (job.only && !policySatisfied(job.only, ctx, evalVars)) continue;
      if (job.except && policyAny(job.except, ctx, evalVars)) continue;
    }
    kept.push({ inst, when: when as Exclude<When, 'never'>, startIn: when === 'delayed' ? startIn : null, allowFailure, vars, needs, interruptible });
  }
  if (ruleErrors.length) return { created: true, errors: ruleErrors, jobs: [], workflowVariables };
  if (kept.length === 0) return { created: false, errors: [RULES_FAILURE], jobs: [], workflowVariables };

  const names = new Set(kept.map((k) => k.inst.name));
  const errors: string[] = [];
  const jobs: JobPlan[] = [];
  for (const k of kept) {
    const job = k.inst.job;
    const needs = k.needs && k.needs.filter((n) => {
      if (names.has(n.name)) return true;
      if (!n.optional) errors.push(`'${k.inst.name}' job needs '${n.name}' job, but '${n.name}' is not in any previous stage`);
      return false;
    });
    const expandVars = scoped(input, k.vars, { name: k.inst.name, stage: job.stage });
    const env = job.environment && { ...job.environment, name: expandVariables(job.environment.name, expandVars), url: job.environment.url && expandVariables(job.environment.url, expandVars) };
    jobs.push({
      name: k.inst.name,
      stage: job.stage,
      stageIdx: stages.indexOf(job.stage),
      when: k.when,
      startInSeconds: k.startIn,
      allowFailure: k.allowFailure,
      allowFailureExitCodes: job.allowFailureExitCodes,
      needs: needs && needs.map((n) => ({ name: n.name, artifacts: n.artifacts, optional: n.optional })),
      variables: { ...k.vars },
      rawVariables: job.rawVariables,
      script: job.script,
      beforeScript: job.beforeScript,
      afterScript: job.afterScript,
      image: job.image,
      services: job.services,
      tags: job.tags.map((t) => expandVariables(t, expandVars)),
      timeoutSeconds: job.timeoutSeconds,
      retry: job.retry,
      interruptible: k.interruptible,
      resourceGroup: job.resourceGroup && expandVariables(job.resourceGroup, expandVars),
      environment: env,
      artifacts: job.artifacts,
      // The runner expands the variables of a cache's key and paths.
      cache: job.cache,
      trigger: job.trigger,
      coverage: job.coverage,
      dependencies: k.inst.dependencies,
      index: job.index,
    });
  }
  if (errors.length) return { created: true, errors, jobs: [], workflowVariables };
  jobs.sort((a, b) => a.stageIdx - b.stageIdx || a.index! - b.index!);
  return { created: true, errors: [], jobs, workflowVariables };
}
