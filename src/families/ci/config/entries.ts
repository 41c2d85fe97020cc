// The entries of a merged configuration (lib/gitlab/ci/config/entry/**): each key checked as
// GitLab's entry checks it, with its message (`jobs:test config contains unknown keys: foo`, the
// location then the message, downcased as GitLab's Validator writes them), and each job
// normalised into what selection and pipeline creation read.
import { parseDuration } from './duration.js';
import { fabricatePattern, parseExpression, type Expr } from './expression.js';
import { isHash, newHash, type Hash } from './load.js';
import type { JobPlan } from './types.js';

export const DEFAULT_STAGES = ['.pre', 'build', 'test', 'deploy', '.post'];

const ROOT_KEYS = ['default', 'include', 'before_script', 'image', 'services', 'after_script', 'variables', 'stages', 'cache', 'workflow'];
const RESERVED = ROOT_KEYS.filter((k) => k !== 'default' && k !== 'workflow');
const PROCESSABLE_KEYS = ['extends', 'stage', 'only', 'except', 'rules', 'variables', 'inherit', 'allow_failure', 'when', 'needs', 'resource_group', 'environment', 'interruptible'];
const JOB_KEYS = [
  'tags', 'script', 'image', 'services', 'start_in', 'artifacts', 'cache', 'dependencies', 'before_script', 'after_script', 'hooks',
  'coverage', 'retry', 'parallel', 'timeout', 'release', 'secrets', 'id_tokens', 'publish', 'pages', 'manual_confirmation', 'identity', 'dast_configuration',
];
const BRIDGE_KEYS = ['trigger', 'parallel'];
const JOB_WHEN = ['on_success', 'on_failure', 'always', 'manual', 'delayed'];
const BRIDGE_WHEN = ['on_success', 'on_failure', 'always', 'manual'];
const RULE_KEYS = ['if', 'changes', 'exists', 'when', 'start_in', 'allow_failure', 'variables', 'needs', 'interruptible'];
const RULE_WHEN = ['on_success', 'on_failure', 'always', 'never', 'manual', 'delayed'];
const WORKFLOW_RULE_KEYS = ['if', 'changes', 'exists', 'when', 'variables', 'auto_cancel'];
const WORKFLOW_RULE_WHEN = ['always', 'never'];
const DEFAULT_KEYS = ['after_script', 'before_script', 'hooks', 'cache', 'image', 'services', 'interruptible', 'timeout', 'retry', 'tags', 'artifacts', 'id_tokens'];
const INHERITABLE = DEFAULT_KEYS;
const ARTIFACT_KEYS = ['name', 'untracked', 'paths', 'exclude', 'expose_as', 'reports', 'when', 'expire_in', 'public', 'access'];
const REPORT_KEYS = [
  'junit', 'coverage_report', 'codequality', 'sast', 'secret_detection', 'dependency_scanning', 'container_scanning', 'dast', 'license_scanning',
  'performance', 'browser_performance', 'load_performance', 'metrics', 'requirements', 'requirements_v2', 'dotenv', 'cobertura', 'terraform',
  'accessibility', 'cluster_image_scanning', 'api_fuzzing', 'coverage_fuzzing', 'cyclonedx', 'annotations', 'repository_xray',
];
const CACHE_KEYS = ['key', 'untracked', 'paths', 'when', 'policy', 'unprotect', 'fallback_keys'];
const CACHE_POLICIES = ['pull', 'push', 'pull-push'];
const MAX_CACHES = 4;
const ENVIRONMENT_KEYS = ['name', 'url', 'action', 'on_stop', 'auto_stop_in', 'kubernetes', 'deployment_tier'];
const ENVIRONMENT_ACTIONS = ['start', 'stop', 'prepare', 'verify', 'access'];
const RETRY_WHEN = [
  'always', 'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure', 'runner_unsupported',
  'stale_schedule', 'job_execution_timeout', 'archived_failure', 'unmet_prerequisites', 'scheduler_failure', 'data_integrity_failure',
];
const TRIGGER_KEYS = ['project', 'branch', 'strategy', 'include', 'forward', 'inputs'];
const ONE_WEEK = 7 * 86400;
const ONE_MONTH = 30 * 86400;
const MAX_PARALLEL = 200;

export interface NeedSpec { name: string; artifacts: boolean; optional: boolean }

export interface RuleSpec {
  if: Expr | null;
  changes: string[] | null;
  /** `changes:compare_to`: the ref whose merge base with the pipeline's commit the changes are counted from. */
  compareTo: string | null;
  exists: string[] | null;
  when: string | null;
  startIn: number | null;
  allowFailure: boolean | null;
  variables: Record<string, string> | null;
  needs: NeedSpec[] | null;
  interruptible: boolean | null;
  /** The rule as written, for lint's answer. */
  raw: Hash;
}

export interface PolicySpec {
  refs: string[] | null;
  variables: Expr[] | null;
  changes: string[] | null;
  kubernetes: boolean;
  raw: Hash;
}

export interface JobSpec {
  name: string;
  index: number;
  stage: string;
  bridge: boolean;
  script: string[];
  beforeScript: string[];
  afterScript: string[];
  when: string;
  startIn: number | null;
  allowFailure: boolean;
  allowFailureExitCodes: number[];
  rules: RuleSpec[] | null;
  only: PolicySpec | null;
  except: PolicySpec | null;
  needs: NeedSpec[] | null;
  dependencies: string[] | null;
  /** Global (as inherited) and job variables, job ones winning. */
  variables: Record<string, string>;
  /** The job's own variables alone (workflow:rules variables go between the global ones and these). */
  ownVariables: Record<string, string>;
  /** Which global variables `inherit:variables` lets in. */
  inheritVariables: unknown;
  rawVariables: string[];
  image: string | null;
  services: string[];
  tags: string[];
  timeoutSeconds: number | null;
  retry: JobPlan['retry'];
  interruptible: boolean;
  resourceGroup: string | null;
  environment: JobPlan['environment'];
  artifacts: JobPlan['artifacts'];
  cache: Cache[];
  trigger: JobPlan['trigger'];
  coverage: string | null;
  /** Each instance's variables when `parallel` expands it, with its name. */
  instances: { name: string; variables: Record<string, string> }[] | null;
}

export interface Entries {
  errors: string[];
  warnings: string[];
  stages: string[];
  globalVariables: Record<string, string>;
  workflowRules: RuleSpec[] | null;
  workflowName: string | null;
  jobs: JobSpec[];
}

class Messages {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  add(location: string, message: string): void {
    // Validator#messages: the whole line downcased; a job name's spaces become underscores in "should implement".
    const line = `${location} ${message}`.toLowerCase().replace(/jobs ([a-z\s]+) config should implement/, (_m, n: string) => `jobs ${n.replace(/ /g, '_')} config should implement`);
    this.errors.push(line);
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const scalar = (v: unknown): boolean => isString(v) || typeof v === 'number' || isBool(v);
/** Ruby's `to_s` of a YAML scalar. */
export const scalarText = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

function unknownKeys(m: Messages, loc: string, v: Hash, allowed: readonly string[]): void {
  const unknown = Object.keys(v).filter((k) => !allowed.includes(k));
  if (unknown.length) m.add(loc, `config contains unknown keys: ${unknown.join(', ')}`);
}

/** Entry::Commands: a string or nested arrays of strings, flattened. */
function commands(m: Messages, loc: string, v: unknown): string[] {
  const out: string[] = [];
  const walk = (x: unknown, level: number): boolean => {
    if (isString(x)) return out.push(x), true;
    if (Array.isArray(x) && level < 10) return x.every((y) => (isString(y) ? (out.push(y), true) : walk(y, level + 1)));
    return false;
  };
  if (isString(v)) return [v];
  if (!Array.isArray(v) || !walk(v, 0)) {
    m.add(loc, 'config should be a string or a nested array of strings up to 10 levels deep');
    return [];
  }
  return out;
}

const IMAGE_KEYS = ['name', 'entrypoint', 'ports', 'pull_policy', 'docker', 'kubernetes'];
const SERVICE_KEYS = ['name', 'entrypoint', 'command', 'alias', 'ports', 'variables', 'pull_policy', 'docker', 'kubernetes'];

function image(m: Messages, loc: string, v: unknown, keys: readonly string[] = IMAGE_KEYS): string | null {
  if (isString(v)) return v;
  if (isHash(v)) {
    unknownKeys(m, loc, v, keys);
    if (!isString(v.name) || v.name === '') m.add(loc, "name can't be blank");
    return isString(v.name) ? v.name : null;
  }
  m.add(loc, 'config should be a hash or a string');
  return null;
}

function services(m: Messages, loc: string, v: unknown): string[] {
  if (!Array.isArray(v)) {
    m.add(loc, 'config should be a array');
    return [];
  }
  const out: string[] = [];
  for (const s of v) {
    const name = image(m, `${loc}:service`, s, SERVICE_KEYS);
    if (name !== null) out.push(name);
  }
  return out;
}

/** Entry::Variables: a hash of scalars, or of `{value, description, expand, options}` where allowed. */
function variables(m: Messages, loc: string, v: unknown, allowedData: readonly string[]): { values: Record<string, string>; raw: string[] } {
  const values: Record<string, string> = newHash() as Record<string, string>;
  const raw: string[] = [];
  if (!isHash(v)) {
    m.add(loc, 'config should be a hash');
    return { values, raw };
  }
  for (const [key, value] of Object.entries(v)) {
    if (isHash(value)) {
      const bad = Object.keys(value).filter((k) => !allowedData.includes(k));
      if (bad.length) m.add(`${loc}:${key}`, `config uses invalid data keys: ${bad.join(', ')}`);
      else if (value.value !== undefined && !scalar(value.value)) m.add(`${loc}:${key}`, 'config value must be an alphanumeric string');
      else if (value.expand !== undefined && !isBool(value.expand)) m.add(`${loc}:${key}`, 'config expand should be a boolean value');
      values[key] = scalarText(value.value);
      if (value.expand === false) raw.push(key);
    } else if (scalar(value)) {
      values[key] = scalarText(value);
    } else {
      // Variable::UnknownStrategy's message names no location.
      m.errors.push('variable definition must be either a string or a hash');
    }
  }
  return { values, raw };
}

function needs(m: Messages, loc: string, v: unknown): NeedSpec[] | null {
  const list = isHash(v) && Array.isArray(v.job) ? v.job : v;
  if (!Array.isArray(list)) {
    m.add(loc, 'config can only be a hash or an array');
    return null;
  }
  const out: NeedSpec[] = [];
  for (const n of list) {
    if (isString(n)) out.push({ name: n, artifacts: true, optional: false });
    else if (isHash(n) && n.job !== undefined && n.pipeline === undefined && n.project === undefined && n.ref === undefined) {
      unknownKeys(m, `${loc}:need`, n, ['job', 'artifacts', 'optional', 'parallel']);
      if (!isString(n.job)) m.add(`${loc}:need`, 'job should be a string');
      if (n.artifacts !== undefined && !isBool(n.artifacts)) m.add(`${loc}:need`, 'artifacts should be a boolean value');
      if (n.optional !== undefined && !isBool(n.optional)) m.add(`${loc}:need`, 'optional should be a boolean value');
      out.push({ name: String(n.job), artifacts: n.artifacts !== false, optional: n.optional === true });
    } else if (isHash(n) && n.pipeline !== undefined && n.project === undefined) {
      // A cross-pipeline need only fetches artifacts; it orders nothing here.
      unknownKeys(m, `${loc}:need`, n, ['pipeline', 'job', 'artifacts']);
    } else if (isHash(n) && n.project !== undefined) {
      // A cross-project need (Premium) only fetches artifacts.
    } else m.add(`${loc}:need`, 'has an unsupported type');
  }
  return out;
}

function changesList(m: Messages, loc: string, v: unknown): string[] | null {
  if (Array.isArray(v)) {
    if (!isStringArray(v)) m.add(loc, 'config should be an array of strings');
    else if (v.length > 50) m.add(loc, 'config has too many entries (maximum 50)');
    return isStringArray(v) ? v : null;
  }
  if (isHash(v)) {
    unknownKeys(m, loc, v, ['paths', 'compare_to']);
    if (!isStringArray(v.paths)) m.add(loc, 'paths should be an array of strings');
    if (v.compare_to !== undefined && v.compare_to !== null && !isString(v.compare_to)) m.add(loc, 'compare to should be a string');
    return isStringArray(v.paths) ? v.paths : [];
  }
  m.add(loc, 'config should be an array or a hash');
  return null;
}

function existsList(m: Messages, loc: string, v: unknown): string[] | null {
  if (isString(v)) return [v];
  if (isStringArray(v)) return v;
  if (isHash(v)) {
    unknownKeys(m, loc, v, ['paths', 'project', 'ref']);
    return isStringArray(v.paths) ? v.paths : [];
  }
  m.add(loc, 'config should be an array of strings or a hash');
  return null;
}

/** Flattens `rules` that hold arrays of rules (from `!reference`), up to 10 levels. */
function flattenRules(v: unknown[], level = 0): unknown[] | null {
  const out: unknown[] = [];
  for (const r of v) {
    if (Array.isArray(r)) {
      if (level >= 10) return null;
      const inner = flattenRules(r, level + 1);
      if (!inner) return null;
      out.push(...inner);
    } else out.push(r);
  }
  return out;
}

function rules(m: Messages, loc: string, v: unknown, keys: readonly string[], whens: readonly string[]): RuleSpec[] | null {
  if (!Array.isArray(v)) {
    m.add(loc, 'config should be an array');
    return null;
  }
  const list = flattenRules(v) ?? [];
  const out: RuleSpec[] = [];
  for (const r of list) {
    const rl = `${loc}:rule`;
    if (!isHash(r)) {
      m.add(rl, 'config should be a hash');
      continue;
    }
    const delayed = r.when === 'delayed';
    if (!delayed && r.start_in !== undefined) m.add(rl, 'config contains disallowed keys: start_in');
    let startIn: number | null = null;
    if (delayed) {
      if (r.start_in === undefined || r.start_in === null || r.start_in === '') m.add(rl, "start in can't be blank");
      else {
        startIn = parseDuration(r.start_in);
        if (startIn === null) m.add(rl, 'start in should be a duration');
        else if (startIn > ONE_WEEK) m.add(rl, 'start in should not exceed the limit');
      }
    }
    let expr: Expr | null = null;
    if (r.if !== undefined && r.if !== null) {
      expr = isString(r.if) ? parseExpression(r.if) : null;
      if (!expr) m.add(rl, 'if invalid expression syntax');
    }
    if (r.allow_failure !== undefined && !isBool(r.allow_failure)) m.add(rl, 'allow failure should be a boolean value');
    if (r.interruptible !== undefined && !isBool(r.interruptible)) m.add(rl, 'interruptible should be a boolean value');
    if (r.when !== undefined && r.when !== null && !whens.includes(String(r.when))) m.add(rl, `when unknown value: ${scalarText(r.when)}`);
    unknownKeys(m, rl, r, keys);
    out.push({
      if: expr,
      changes: r.changes !== undefined ? changesList(m, `${rl}:changes`, r.changes) : null,
      compareTo: isHash(r.changes) && isString(r.changes.compare_to) ? r.changes.compare_to : null,
      exists: r.exists !== undefined ? existsList(m, `${rl}:exists`, r.exists) : null,
      when: isString(r.when) ? r.when : null,
      startIn,
      allowFailure: isBool(r.allow_failure) ? r.allow_failure : null,
      variables: r.variables !== undefined ? variables(m, `${rl}:variables`, r.variables, ['value', 'expand']).values : null,
      needs: r.needs !== undefined ? needs(m, `${rl}:needs`, r.needs) : null,
      interruptible: isBool(r.interruptible) ? r.interruptible : null,
      raw: r,
    });
  }
  return out;
}

/** Ruby-syntax regex refs (`/^release-.*$/`) must compile in RE2. */
const isRegexRef = (s: string) => /^\/.+\/[ismU]*$/s.test(s);

function policy(m: Messages, loc: string, v: unknown): PolicySpec | null {
  const refsValid = (refs: unknown) => Array.isArray(refs) && refs.every((r) => isString(r) && (!isRegexRef(r) || fabricatePattern(r) !== null));
  if (Array.isArray(v)) {
    if (!refsValid(v)) {
      m.add(loc, 'config should be an array of strings or regular expressions using re2 syntax');
      return null;
    }
    const raw = newHash();
    raw.refs = v;
    return { refs: v as string[], variables: null, changes: null, kubernetes: false, raw };
  }
  if (isHash(v)) {
    if (Object.keys(v).length === 0) m.add(loc, "config can't be blank");
    unknownKeys(m, loc, v, ['refs', 'kubernetes', 'variables', 'changes']);
    if (v.refs !== undefined && !refsValid(v.refs)) m.add(loc, 'refs should be an array of strings or regular expressions using re2 syntax');
    if (v.kubernetes !== undefined && v.kubernetes !== 'active') m.add(loc, `kubernetes unknown value: ${scalarText(v.kubernetes)}`);
    let exprs: Expr[] | null = null;
    if (v.variables !== undefined) {
      if (!isStringArray(v.variables)) m.add(loc, 'variables should be an array of strings');
      else {
        exprs = [];
        for (const s of v.variables) {
          const e = parseExpression(s);
          if (!e) m.add(loc, 'variables invalid expression syntax');
          else exprs.push(e);
        }
      }
    }
    let changes: string[] | null = null;
    if (v.changes !== undefined) {
      if (isStringArray(v.changes)) changes = v.changes;
      else if (isHash(v.changes) && isStringArray(v.changes.paths)) changes = v.changes.paths;
      else m.add(loc, 'changes should be an array of strings');
    }
    return { refs: isStringArray(v.refs) ? v.refs : null, variables: exprs, changes, kubernetes: v.kubernetes === 'active', raw: v };
  }
  m.add(loc, 'has to be either an array of conditions or a hash');
  return null;
}

type Cache = NonNullable<JobPlan['cache']>[number];

/** Entry::Caches: one cache or a list of at most four, each as Entry::Cache checks it. */
function caches(m: Messages, loc: string, v: unknown): Cache[] {
  const list = Array.isArray(v) ? v : [v];
  if (Array.isArray(v) && v.length > MAX_CACHES) {
    m.add(loc, `config no more than ${MAX_CACHES} caches can be created`);
    return [];
  }
  const out: Cache[] = [];
  for (const c of list) {
    if (!isHash(c)) {
      m.add(loc, 'config should be a hash');
      continue;
    }
    const before = m.errors.length;
    unknownKeys(m, loc, c, CACHE_KEYS);
    let key: Cache['key'] = 'default';
    if (c.key !== undefined) {
      if (isString(c.key) || typeof c.key === 'number') key = String(c.key);
      else if (isHash(c.key)) {
        // Entry::Key's hash: exactly one of `files` (at most 10) and `files_commits` (at most 2), and a `prefix`.
        unknownKeys(m, `${loc}:key`, c.key, ['files', 'files_commits', 'prefix']);
        if ((c.key.files === undefined) === (c.key.files_commits === undefined)) m.add(`${loc}:key`, 'config must use exactly one of these keys: files, files_commits');
        for (const [name, max] of [['files', 10], ['files_commits', 2]] as const) {
          const list = c.key[name];
          if (list === undefined) continue;
          if (!isStringArray(list)) m.add(`${loc}:key:${name}`, 'config should be an array of strings');
          else if (list.length === 0) m.add(`${loc}:key:${name}`, 'config requires at least 1 item');
          else if (list.length > max) m.add(`${loc}:key:${name}`, `config has too many items (maximum is ${max})`);
        }
        if (c.key.prefix !== undefined && !isString(c.key.prefix)) m.add(`${loc}:key:prefix`, 'config should be a string or symbol');
        const prefix = isString(c.key.prefix) ? c.key.prefix : null;
        key = isStringArray(c.key.files_commits) ? { filesCommits: [...c.key.files_commits], prefix } : { files: isStringArray(c.key.files) ? [...c.key.files] : [], prefix };
      } else m.add(`${loc}:key`, 'should be a hash, a string or a symbol');
    }
    if (c.paths !== undefined && !isStringArray(c.paths)) m.add(`${loc}:paths`, 'config should be an array of strings');
    if (c.untracked !== undefined && !isBool(c.untracked)) m.add(`${loc}:untracked`, 'config should be a boolean value');
    const policy = c.policy === undefined ? 'pull-push' : scalarText(c.policy);
    if (!CACHE_POLICIES.includes(policy) && !/\$/.test(policy)) m.add(loc, `policy should be ${CACHE_POLICIES.join(', ')}, or a variable`);
    const when = c.when === undefined ? 'on_success' : scalarText(c.when);
    if (!['on_success', 'on_failure', 'always'].includes(when)) m.add(`${loc}:when`, 'config should be one of on_success, on_failure, always');
    if (c.fallback_keys !== undefined && !isStringArray(c.fallback_keys)) m.add(`${loc}:fallback_keys`, 'config should be an array of strings');
    if (m.errors.length > before) continue;
    out.push({
      key, paths: isStringArray(c.paths) ? [...c.paths] : [], untracked: c.untracked === true, policy, when,
      fallbackKeys: isStringArray(c.fallback_keys) ? [...c.fallback_keys] : [],
    });
  }
  return out;
}

function environment(m: Messages, loc: string, v: unknown): JobPlan['environment'] {
  if (isString(v)) return { name: v, action: 'start', url: null, onStop: null, autoStopIn: null };
  if (!isHash(v)) {
    m.add(loc, 'config should be a hash or a string');
    return null;
  }
  unknownKeys(m, loc, v, ENVIRONMENT_KEYS);
  if (!isString(v.name) || v.name === '') m.add(loc, "name can't be blank");
  const action = v.action === undefined ? 'start' : String(v.action);
  if (v.action !== undefined && !isString(v.action)) m.add(loc, 'action should be a string');
  else if (!ENVIRONMENT_ACTIONS.includes(action)) m.add(loc, 'action should be start, stop, prepare, verify, or access');
  if (v.url !== undefined && !isString(v.url)) m.add(loc, 'url should be a string');
  if (v.on_stop !== undefined && !isString(v.on_stop)) m.add(loc, 'on stop should be a string');
  if (v.auto_stop_in !== undefined && (!isString(v.auto_stop_in) || (v.auto_stop_in !== 'never' && parseDuration(v.auto_stop_in) === null))) m.add(loc, 'auto stop in should be a duration');
  return {
    name: isString(v.name) ? v.name : '',
    action: action as 'start',
    url: isString(v.url) ? v.url : null,
    onStop: isString(v.on_stop) ? v.on_stop : null,
    autoStopIn: isString(v.auto_stop_in) ? v.auto_stop_in : null,
  };
}

function artifacts(m: Messages, loc: string, v: unknown): JobPlan['artifacts'] {
  if (!isHash(v)) {
    m.add(loc, 'config should be a hash');
    return null;
  }
  unknownKeys(m, loc, v, ARTIFACT_KEYS);
  if (v.paths !== undefined && !isStringArray(v.paths)) m.add(loc, 'paths should be an array of strings');
  if (v.exclude !== undefined && !isStringArray(v.exclude)) m.add(loc, 'exclude should be an array of strings');
  if (v.name !== undefined && !isString(v.name)) m.add(loc, 'name should be a string');
  if (v.untracked !== undefined && !isBool(v.untracked)) m.add(loc, 'untracked should be a boolean value');
  if (v.public !== undefined && !isBool(v.public)) m.add(loc, 'public should be a boolean value');
  const when = v.when === undefined ? 'on_success' : String(v.when);
  if (!['on_success', 'on_failure', 'always'].includes(when)) m.add(loc, 'when should be one of: on_success, on_failure, always');
  if (v.expire_in !== undefined && (!isString(v.expire_in) || (v.expire_in !== 'never' && parseDuration(v.expire_in) === null))) m.add(loc, 'expire in should be a duration');
  let reports: string[] = [];
  if (v.reports !== undefined) {
    if (!isHash(v.reports)) m.add(`${loc}:reports`, 'config should be a hash');
    else {
      unknownKeys(m, `${loc}:reports`, v.reports, REPORT_KEYS);
      reports = Object.keys(v.reports);
    }
  }
  return {
    paths: isStringArray(v.paths) ? [...v.paths] : [],
    expireIn: isString(v.expire_in) ? v.expire_in : null,
    reports,
    name: isString(v.name) ? v.name : null,
    when: when as 'on_success',
    public: v.public !== false,
  };
}

function retry(m: Messages, loc: string, v: unknown): JobPlan['retry'] {
  const none = { max: 0, when: ['always'], exitCodes: [] };
  const range = (n: number, what: string) => {
    if (n < 0) m.add(loc, `${what} must be greater than or equal to 0`);
    else if (n > 2) m.add(loc, `${what} must be less than or equal to 2`);
  };
  if (isInt(v)) {
    range(v, 'config');
    return { ...none, max: v };
  }
  if (!isHash(v)) {
    m.add(loc, 'config has to be either an integer or a hash');
    return none;
  }
  unknownKeys(m, loc, v, ['max', 'when', 'exit_codes']);
  if (v.max !== undefined) {
    if (!isInt(v.max)) m.add(loc, 'max must be an integer');
    else range(v.max, 'max');
  }
  const whens = v.when === undefined ? ['always'] : isString(v.when) ? [v.when] : isStringArray(v.when) ? v.when : null;
  if (!whens) m.add(loc, 'when should be an array of strings or a string');
  else {
    const bad = whens.filter((w) => !RETRY_WHEN.includes(w));
    if (bad.length) m.add(loc, isString(v.when) ? 'when is not included in the list' : `when contains unknown values: ${bad.join(', ')}`);
  }
  const codes = v.exit_codes === undefined ? [] : isInt(v.exit_codes) ? [v.exit_codes] : Array.isArray(v.exit_codes) && v.exit_codes.every(isInt) ? (v.exit_codes as number[]) : null;
  if (!codes) m.add(loc, 'exit codes should be an array of integers or an integer');
  return { max: isInt(v.max) ? v.max : 0, when: [...(whens ?? ['always'])], exitCodes: [...(codes ?? [])] };
}

/** `parallel: N` or `parallel: matrix: [...]`, expanded into the instances GitLab names. */
function parallel(m: Messages, loc: string, name: string, v: unknown): JobSpec['instances'] {
  if (isInt(v)) {
    if (v < 1) m.add(loc, 'config must be greater than or equal to 1');
    else if (v > MAX_PARALLEL) m.add(loc, `config must be less than or equal to ${MAX_PARALLEL}`);
    else if (v === 1) return null;
    else return Array.from({ length: v }, (_, i) => ({ name: `${name} ${i + 1}/${v}`, variables: {} }));
    return null;
  }
  if (typeof v === 'number') {
    m.add(loc, 'config must be an integer');
    return null;
  }
  if (!isHash(v)) {
    m.add(loc, 'should be an integer or a hash');
    return null;
  }
  unknownKeys(m, loc, v, ['matrix']);
  if (v.matrix === undefined) {
    m.add(loc, 'config missing required keys: matrix');
    return null;
  }
  const ml = `${loc}:matrix`;
  if (!Array.isArray(v.matrix) || !v.matrix.every(isHash)) {
    m.add(ml, 'config should be an array of hashes');
    return null;
  }
  const combos: Record<string, string>[] = [];
  for (const entry of v.matrix as Hash[]) {
    let partial: Record<string, string>[] = [{}];
    for (const [key, values] of Object.entries(entry)) {
      const list = Array.isArray(values) ? values : [values];
      if (!list.every(scalar)) {
        m.add(`${ml}:variables`, 'config should be a hash of key value pairs, value can be an array');
        return null;
      }
      partial = partial.flatMap((p) => list.map((x) => ({ ...p, [key]: scalarText(x) })));
    }
    combos.push(...partial);
    if (combos.length > MAX_PARALLEL) {
      m.add(ml, `config generates too many jobs (maximum is ${MAX_PARALLEL})`);
      return null;
    }
  }
  return combos.map((vars) => ({ name: `${name}: [${Object.values(vars).join(', ')}]`, variables: vars }));
}

function trigger(m: Messages, loc: string, v: unknown): JobPlan['trigger'] {
  if (isString(v)) return { include: null, project: v, branch: null, strategy: null };
  if (!isHash(v)) {
    m.add(loc, 'config should be a hash or a string');
    return null;
  }
  unknownKeys(m, loc, v, TRIGGER_KEYS);
  if (v.strategy !== undefined && v.strategy !== 'depend') m.add(loc, 'strategy should be depend');
  let include: string[] | null = null;
  if (v.include !== undefined) {
    const list = Array.isArray(v.include) ? v.include : [v.include];
    include = [];
    for (const i of list) {
      if (isString(i)) include.push(i);
      else if (isHash(i) && isString(i.local)) include.push(i.local);
      else if (isHash(i) && i.artifact !== undefined && i.job === undefined) m.add(`${loc}:include`, 'config must specify the job where to fetch the artifact from');
      else if (isHash(i) && i.project !== undefined && i.file === undefined) m.add(`${loc}:include`, 'config must specify the file where to fetch the config from');
      else if (isHash(i) && (isString(i.artifact) || isString(i.template) || i.project !== undefined || isString(i.remote))) {
        // Not a file of this repository: kept out of the list of local paths.
      } else m.add(loc, 'include config should be a string, a hash or an array');
    }
  }
  if (v.project === undefined && v.include === undefined) m.add(loc, 'config must specify either project or include');
  // Entry::Trigger::Forward: `yaml_variables` and `pipeline_variables`, booleans.
  const forward = { yamlVariables: true, pipelineVariables: false };
  if (v.forward !== undefined && v.forward !== null) {
    const f = v.forward;
    if (!isHash(f)) m.add(`${loc}:forward`, 'config should be a hash');
    else {
      unknownKeys(m, `${loc}:forward`, f, ['yaml_variables', 'pipeline_variables']);
      if (f.yaml_variables !== undefined && f.yaml_variables !== null && !isBool(f.yaml_variables)) m.add(`${loc}:forward`, 'yaml variables should be a boolean value');
      if (f.pipeline_variables !== undefined && f.pipeline_variables !== null && !isBool(f.pipeline_variables)) m.add(`${loc}:forward`, 'pipeline variables should be a boolean value');
      if (isBool(f.yaml_variables)) forward.yamlVariables = f.yaml_variables;
      if (isBool(f.pipeline_variables)) forward.pipelineVariables = f.pipeline_variables;
    }
  }
  return {
    include,
    project: isString(v.project) ? v.project : null,
    branch: isString(v.branch) ? v.branch : null,
    strategy: v.strategy === 'depend' ? 'depend' : null,
    ...(v.forward !== undefined && v.forward !== null ? { forward } : {}),
  };
}

function stagesOf(m: Messages, v: unknown): string[] {
  if (v === undefined) return DEFAULT_STAGES;
  // Entry::Stages: strings, or arrays of them (from `!reference`) up to 10 levels, flattened.
  const out: string[] = [];
  const walk = (x: unknown, level: number): boolean =>
    Array.isArray(x) && x.every((y) => (isString(y) ? (out.push(y), true) : level < 10 && walk(y, level + 1)));
  if (!walk(v, 1)) {
    m.add('stages', 'config should be an array of strings or a nested array of strings up to 10 levels deep');
    return DEFAULT_STAGES;
  }
  return [...new Set(out)];
}

/** The inheritable values of `default` (or the root), each at its location. */
function checkDefaults(m: Messages, prefix: string, d: Hash): void {
  for (const k of ['before_script', 'after_script']) if (d[k] !== undefined) commands(m, `${prefix}${k}`, d[k]);
  if (d.image !== undefined) image(m, `${prefix}image`, d.image);
  if (d.services !== undefined) services(m, `${prefix}services`, d.services);
  if (d.timeout !== undefined) {
    const t = parseDuration(d.timeout);
    if (t === null) m.add(`${prefix}timeout`, 'config should be a duration');
    else if (t > ONE_MONTH) m.add(`${prefix}timeout`, 'config should not exceed the limit');
  }
  if (d.retry !== undefined) retry(m, `${prefix}retry`, d.retry);
  if (d.tags !== undefined && !isStringArray(d.tags)) m.add(`${prefix}tags`, 'config should be an array of strings');
  if (d.artifacts !== undefined) artifacts(m, `${prefix}artifacts`, d.artifacts);
  if (d.interruptible !== undefined && !isBool(d.interruptible)) m.add(`${prefix}interruptible`, 'config should be a boolean value');
  if (d.cache !== undefined) caches(m, `${prefix}cache`, d.cache);
}

type JobType = 'job' | 'bridge' | 'hidden' | null;

function jobType(name: string, v: unknown): JobType {
  if (name.startsWith('.')) return 'hidden';
  if (isHash(v) && (v.script !== undefined || v.run !== undefined)) return 'job';
  if (isHash(v) && v.trigger !== undefined) return 'bridge';
  return null;
}

export function inheritAllows(setting: unknown, key: string): boolean {
  if (setting === undefined || setting === true) return true;
  if (setting === false) return false;
  return Array.isArray(setting) && setting.includes(key);
}

/** Checks the merged configuration and normalises its jobs. */
export function readEntries(config: Hash): Entries {
  const m = new Messages();
  const jobsConfig: [string, unknown][] = [];
  const root = newHash();
  for (const [k, v] of Object.entries(config)) {
    if (RESERVED.includes(k) || (ROOT_KEYS.includes(k) && jobType(k, v) === null)) root[k] = v;
    else jobsConfig.push([k, v]);
  }

  // default, then the legacy root keys that act as defaults.
  const defaults = newHash();
  if (root.default !== undefined) {
    const d = root.default;
    if (!isHash(d)) m.add('default', 'config should be a hash');
    else {
      const before = m.errors.length;
      unknownKeys(m, 'default', d, DEFAULT_KEYS);
      if (m.errors.length === before) checkDefaults(m, 'default:', d);
      for (const [k, v] of Object.entries(d)) if (DEFAULT_KEYS.includes(k)) defaults[k] = v;
    }
  }
  // The root's own before_script, image, services, after_script and cache act as defaults too.
  const legacy = newHash();
  for (const k of ['before_script', 'image', 'services', 'after_script', 'cache']) if (root[k] !== undefined) legacy[k] = root[k];
  checkDefaults(m, '', legacy);
  for (const [k, v] of Object.entries(legacy)) if (defaults[k] === undefined) defaults[k] = v;

  const globals = root.variables !== undefined ? variables(m, 'variables', root.variables, ['value', 'description', 'expand', 'options']) : { values: newHash() as Record<string, string>, raw: [] };
  const stages = stagesOf(m, root.stages);

  let workflowRules: RuleSpec[] | null = null;
  let workflowName: string | null = null;
  if (root.workflow !== undefined) {
    const w = root.workflow;
    if (!isHash(w)) m.add('workflow', 'config should be a hash');
    else {
      unknownKeys(m, 'workflow', w, ['rules', 'name', 'auto_cancel']);
      if (w.name !== undefined) {
        if (!isString(w.name)) m.add('workflow', 'name should be a string');
        else if (w.name.length > 255) m.add('workflow', 'name is too long (maximum is 255 characters)');
        else workflowName = w.name;
      }
      if (w.rules !== undefined) workflowRules = rules(m, 'workflow:rules', w.rules, WORKFLOW_RULE_KEYS, WORKFLOW_RULE_WHEN);
    }
  }

  // Jobs: first the keys that are no job at all, then whether any is visible.
  const unmatched = jobsConfig.filter(([n, v]) => jobType(n, v) === null);
  for (const [n] of unmatched) m.add('jobs', `${n} config should implement the script:, run:, or trigger: keyword`);
  if (!jobsConfig.some(([n]) => !n.startsWith('.'))) m.add('jobs', 'config should contain at least one visible job');

  const jobs: JobSpec[] = [];
  const jobsValid = unmatched.length === 0 && jobsConfig.some(([n]) => !n.startsWith('.'));
  if (jobsValid) jobsConfig.forEach(([name, v], index) => {
    const type = jobType(name, v);
    if (type !== 'job' && type !== 'bridge') return;
    const job = readJob(m, name, v as Hash, type === 'bridge', index, defaults, globals, workflowRules !== null);
    if (job) jobs.push(job);
  });
  return { errors: m.errors, warnings: m.warnings, stages, globalVariables: globals.values, workflowRules, workflowName, jobs };
}

function readJob(
  jobMessages: Messages, name: string, v: Hash, bridge: boolean, index: number, defaults: Hash,
  globals: { values: Record<string, string>; raw: string[] }, hasWorkflowRules: boolean,
): JobSpec | null {
  const m = jobMessages;
  const before = m.errors.length;
  const loc = `jobs:${name}`;
  const hasRules = v.rules !== undefined && v.rules !== null;
  // Processable's checks (an empty name has the entry's own name as its location).
  if (name === '') m.add('jobs:job', "name can't be blank");
  if (name.length > 255) m.add(loc, 'name is too long (maximum is 255 characters)');
  if (v.script !== undefined && v.trigger !== undefined) m.add(loc, 'config these keys cannot be used together: script, trigger');
  if (hasRules) {
    const present = Object.keys(v).filter((k) => ['only', 'except', 'start_in'].includes(k) && v[k] !== null);
    if (present.length) m.add(loc, `config key may not be used with \`rules\`: ${present.join(', ')}`);
  }
  if (v.extends !== undefined && !isString(v.extends) && !isStringArray(v.extends)) m.add(loc, 'extends should be an array of strings or a string');
  if (hasRules && (!Array.isArray(v.rules) || (flattenRules(v.rules) ?? [0]).some((r) => !isHash(r)))) m.add(loc, 'rules should be an array containing hashes and arrays of hashes');
  if (v.resource_group !== undefined && !isString(v.resource_group)) m.add(loc, 'resource group should be a string');
  unknownKeys(m, loc, v, bridge ? [...BRIDGE_KEYS, ...PROCESSABLE_KEYS] : [...JOB_KEYS, ...PROCESSABLE_KEYS, 'run']);

  const allowedWhen = bridge ? BRIDGE_WHEN : JOB_WHEN;
  const when = v.when === undefined || v.when === null ? 'on_success' : scalarText(v.when);
  if (v.when !== undefined && v.when !== null && (!isString(v.when) || !allowedWhen.includes(v.when))) m.add(loc, `when should be one of: ${allowedWhen.join(', ')}`);
  if (v.dependencies !== undefined && !isStringArray(v.dependencies)) m.add(loc, 'dependencies should be an array of strings');
  if (v.allow_failure !== undefined && !isBool(v.allow_failure) && !isHash(v.allow_failure)) m.add(loc, `allow failure should be ${bridge ? 'a boolean value' : 'a hash or a boolean value'}`);
  let startIn: number | null = null;
  if (when === 'delayed' && !hasRules) {
    startIn = parseDuration(v.start_in);
    if (startIn === null) m.add(loc, 'start in should be a duration');
    else if (startIn > ONE_WEEK) m.add(loc, 'start in should not exceed the limit');
  } else if (v.start_in !== undefined && !hasRules) m.add(loc, 'start in must be blank');
  if (!bridge && v.run === undefined && (v.script === '' || v.script === null || (Array.isArray(v.script) && v.script.length === 0))) m.add(loc, "script can't be blank");
  // Node#compose!: a job whose own checks fail has no entries checked.
  if (m.errors.length > before) return null;

  const inherit = isHash(v.inherit) ? v.inherit : newHash();
  if (v.inherit !== undefined && !isHash(v.inherit)) m.add(`${loc}:inherit`, 'config should be a hash');
  const pick = (key: string): unknown => (v[key] !== undefined ? v[key] : inheritAllows(inherit.default, key) && INHERITABLE.includes(key) ? defaults[key] : undefined);
  // A value taken from `default` was checked there; its problems are not the job's again.
  const scratch = new Messages();
  const at = (key: string): Messages => (v[key] !== undefined ? m : scratch);

  const script = bridge ? [] : commands(m, `${loc}:script`, v.script ?? []);
  const beforeScript = pick('before_script') !== undefined && !bridge ? commands(at('before_script'), `${loc}:before_script`, pick('before_script')) : [];
  const afterScript = pick('after_script') !== undefined && !bridge ? commands(at('after_script'), `${loc}:after_script`, pick('after_script')) : [];
  const img = pick('image') !== undefined && !bridge ? image(at('image'), `${loc}:image`, pick('image')) : null;
  const svcs = pick('services') !== undefined && !bridge ? services(at('services'), `${loc}:services`, pick('services')) : [];
  let timeoutSeconds: number | null = null;
  const t = pick('timeout');
  if (t !== undefined && !bridge) {
    timeoutSeconds = parseDuration(t);
    if (timeoutSeconds === null) at('timeout').add(`${loc}:timeout`, 'config should be a duration');
    else if (timeoutSeconds > ONE_MONTH) at('timeout').add(`${loc}:timeout`, 'config should not exceed the limit');
  }
  const rt = pick('retry') !== undefined && !bridge ? retry(at('retry'), `${loc}:retry`, pick('retry')) : { max: 0, when: ['always'], exitCodes: [] };
  const tg = pick('tags');
  let tags: string[] = [];
  if (tg !== undefined && !bridge) {
    if (!isStringArray(tg)) at('tags').add(`${loc}:tags`, 'config should be an array of strings');
    else if (tg.length > 50) at('tags').add(`${loc}:tags`, 'config must be less than the limit of 50 tags');
    else tags = [...tg];
  }
  const arts = pick('artifacts') !== undefined && !bridge ? artifacts(at('artifacts'), `${loc}:artifacts`, pick('artifacts')) : null;
  const cache = pick('cache') !== undefined && !bridge ? caches(at('cache'), `${loc}:cache`, pick('cache')) : [];
  const jobNeeds = v.needs !== undefined && v.needs !== null ? needs(m, `${loc}:needs`, v.needs) : null;
  if (isStringArray(v.dependencies) && jobNeeds && jobNeeds.length) {
    const missing = v.dependencies.filter((d) => !jobNeeds.some((n) => n.name === d));
    if (missing.length) m.add(loc, `dependencies the ${missing.join(', ')} should be part of needs`);
  }
  let coverage: string | null = null;
  if (v.coverage !== undefined && !bridge) {
    if (!isString(v.coverage) || fabricatePattern(v.coverage) === null) m.add(`${loc}:coverage`, 'config must be a regular expression with re2 syntax');
    else coverage = v.coverage;
  }
  const instances = v.parallel !== undefined ? parallel(m, `${loc}:parallel`, name, v.parallel) : null;

  let allowFailure = when === 'manual';
  let exitCodes: number[] = [];
  if (isBool(v.allow_failure)) allowFailure = v.allow_failure;
  else if (isHash(v.allow_failure) && !bridge) {
    unknownKeys(m, `${loc}:allow_failure`, v.allow_failure, ['exit_codes']);
    const c = v.allow_failure.exit_codes;
    if (isInt(c)) exitCodes = [c];
    else if (Array.isArray(c) && c.every(isInt)) exitCodes = [...(c as number[])];
    else m.add(`${loc}:allow_failure`, 'exit codes should be an array of integers or an integer');
    allowFailure = false;
  }
  const env = v.environment !== undefined ? environment(m, `${loc}:environment`, v.environment) : null;
  const ruleList = hasRules && Array.isArray(v.rules) ? rules(m, `${loc}:rules`, v.rules, RULE_KEYS, RULE_WHEN) : null;
  const own = v.variables !== undefined ? variables(m, `${loc}:variables`, v.variables, ['value', 'expand']) : { values: newHash() as Record<string, string>, raw: [] };
  const intr = pick('interruptible');
  if (intr !== undefined && !isBool(intr)) at('interruptible').add(`${loc}:interruptible`, 'config should be a boolean value');
  const trig = bridge ? trigger(m, `${loc}:trigger`, v.trigger) : null;
  // `type`, the old name of `stage`, is gone from GitLab's keys (an unknown key now).
  const stageValue = v.stage;
  if (stageValue !== undefined && !isString(stageValue)) m.add(`${loc}:stage`, 'config should be a string');

  // Default only (branches and tags) unless rules are used here or in workflow.
  let only: PolicySpec | null = null;
  let except: PolicySpec | null = null;
  if (v.only !== undefined && v.only !== null) only = policy(m, `${loc}:only`, v.only);
  if (v.except !== undefined && v.except !== null) except = policy(m, `${loc}:except`, v.except);
  if (!hasRules) {
    const raw = newHash();
    raw.refs = ['branches', 'tags'];
    if (!only && !(hasWorkflowRules && v.only === undefined)) only = { refs: ['branches', 'tags'], variables: null, changes: null, kubernetes: false, raw };
    else if (only && only.refs === null && !Array.isArray(v.only)) {
      // Policy#value deep-merges the default refs under a hash form.
      only = { ...only, refs: ['branches', 'tags'], raw: { refs: ['branches', 'tags'], ...only.raw } };
    }
  }
  if (ruleList) {
    const last = ruleList[ruleList.length - 1];
    if (!hasWorkflowRules && last && Object.keys(last.raw).length === 1 && last.raw.when !== undefined && last.raw.when !== 'never') {
      m.warnings.push(`${loc} may allow multiple pipelines to run for a single action due to \`rules:when\` clause with no \`workflow:rules\` - read more: https://docs.gitlab.com/ee/ci/jobs/job_troubleshooting.html#job-may-allow-multiple-pipelines-to-run-for-a-single-action-warning`);
    }
  }

  // Global variables as `inherit:variables` lets them in, the job's own over them.
  const vars = newHash() as Record<string, string>;
  const raw = new Set<string>();
  for (const [k, x] of Object.entries(globals.values)) {
    if (inheritAllows(inherit.variables, k)) {
      vars[k] = x;
      if (globals.raw.includes(k)) raw.add(k);
    }
  }
  for (const [k, x] of Object.entries(own.values)) {
    vars[k] = x;
    if (own.raw.includes(k)) raw.add(k);
    else raw.delete(k);
  }

  return {
    name, index, bridge,
    stage: isString(stageValue) ? stageValue : 'test',
    script, beforeScript, afterScript,
    when, startIn,
    allowFailure, allowFailureExitCodes: exitCodes,
    rules: ruleList, only, except,
    needs: jobNeeds,
    dependencies: isStringArray(v.dependencies) ? [...v.dependencies] : null,
    variables: vars, ownVariables: own.values, inheritVariables: inherit.variables, rawVariables: [...raw],
    image: img, services: svcs, tags, timeoutSeconds, retry: rt,
    interruptible: intr === true,
    resourceGroup: isString(v.resource_group) ? v.resource_group : null,
    environment: env, artifacts: arts, cache, trigger: trig, coverage, instances,
  };
}
