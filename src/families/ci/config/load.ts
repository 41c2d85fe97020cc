// From the text of .gitlab-ci.yml to the merged configuration (Gitlab::Ci::Config#build_config):
// the file, then its `include`s merged under it, then `extends`, then `!reference` tags, then the
// `.pre` and `.post` stages added to `stages`. A failure here is one error, GitLab's message.
import { globMatch } from './globs.js';
import { holds, parseExpression, type Variables } from './expression.js';
import { interpolate } from './inputs.js';
import { loadYaml, Reference } from './yaml.js';
import type { CompileInput } from './types.js';

import { ConfigError, isHash, newHash, type Hash } from './values.js';

export { ConfigError, isHash, newHash, type Hash };

/** Hash#deep_merge: hashes merge key by key, anything else on the right replaces. */
export function deepMerge(left: Hash, right: Hash): Hash {
  const out = newHash();
  for (const [k, v] of Object.entries(left)) out[k] = v;
  for (const [k, v] of Object.entries(right)) {
    const l = out[k];
    out[k] = isHash(l) && isHash(v) ? deepMerge(l, v) : v;
  }
  return out;
}

/** `$VAR` and `${VAR}` replaced by their values (ExpandVariables.expand); unknown ones become empty. */
export function expandVariables(text: string, vars: Variables): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a: string | undefined, b: string | undefined) => {
    const name = (a ?? b)!;
    return Object.hasOwn(vars, name) ? vars[name]! : '';
  });
}

export interface IncludeRecord {
  type: string;
  location: string;
  blob: string | null;
  raw: string | null;
  extra: Record<string, unknown>;
  context_project: string | null;
  context_sha: string | null;
}

/** Limits of Gitlab::Ci::Config::External::Context. */
const MAX_INCLUDES = 150;
const MAX_NESTING = 100;

interface IncludeRun {
  input: CompileInput;
  vars: Variables;
  records: IncludeRecord[];
  seen: Set<string>;
}

const YAML_EXT = /\.ya?ml$/;

function includeEntries(spec: unknown): unknown[] {
  if (spec === undefined || spec === null) return [];
  return Array.isArray(spec) ? spec : [spec];
}

/** Include rules (External::Rules): `if` and `exists`; a matching rule's `when: never` drops it. */
function includeAllowed(rules: unknown, run: IncludeRun): boolean {
  if (rules === undefined) return true;
  if (!Array.isArray(rules)) throw new ConfigError('include rules config should be an array of hashes');
  for (const rule of rules) {
    if (!isHash(rule)) throw new ConfigError('include rule config should be a hash');
    let ok = true;
    if (rule.if !== undefined) {
      const e = typeof rule.if === 'string' ? parseExpression(rule.if) : null;
      if (!e) throw new ConfigError('include:rules:rule if invalid expression syntax');
      ok &&= holds(e, run.vars);
    }
    if (ok && rule.changes !== undefined && run.input.changedPaths !== undefined) {
      const raw = isHash(rule.changes) ? rule.changes.paths : rule.changes;
      const globs = (Array.isArray(raw) ? raw : [raw]).map((g) => expandVariables(String(g), run.vars));
      ok = run.input.changedPaths.some((p) => globs.some((g) => globMatch(g, p)));
    }
    if (ok && rule.exists !== undefined) {
      const globs = (Array.isArray(rule.exists) ? rule.exists : [rule.exists]).map(String);
      const paths = run.input.paths();
      ok = globs.some((g) => paths.some((p) => globMatch(g, p)));
    }
    if (ok) return rule.when !== 'never';
  }
  return false;
}

function linkOf(input: CompileInput, kind: 'blob' | 'raw', path: string): string | null {
  const p = input.project;
  return p ? `${p.webUrl}/-/${kind}/${p.sha}/${path}` : null;
}

function loadIncluded(text: string, location: string, kind: string, inputs: unknown): Hash {
  if (inputs !== undefined && !isHash(inputs)) throw new ConfigError(`Included file \`${location}\` has invalid inputs: inputs should be a hash`);
  const loaded = loadYaml(interpolate(text, inputs as Hash | undefined, location));
  if (!loaded.ok) throw new ConfigError(`Included file \`${location}\` does not have valid YAML syntax!`);
  if (loaded.value === null || loaded.value === undefined) throw new ConfigError(`${kind} \`${location}\` is empty!`);
  if (!isHash(loaded.value)) throw new ConfigError(`Included file \`${location}\` does not have valid YAML syntax!`);
  return loaded.value;
}

function processIncludes(config: Hash, run: IncludeRun, depth: number): Hash {
  const spec = config.include;
  const rest = newHash();
  for (const [k, v] of Object.entries(config)) if (k !== 'include') rest[k] = v;
  if (spec === undefined) return rest;
  if (depth > MAX_NESTING) throw new ConfigError(`Maximum nesting depth of includes is ${MAX_NESTING}`);
  let merged = newHash();
  for (const entry of includeEntries(spec)) {
    for (const file of resolveInclude(entry, run)) merged = deepMerge(merged, processIncludes(file, run, depth + 1));
  }
  return deepMerge(merged, rest);
}

const ACCESSORS = ['remote', 'template', 'local', 'project', 'artifact', 'component'];

/** Mapper#normalize_location: a string is a local path, or a remote one when it is a URL. */
function normalizeInclude(entry: unknown): Hash {
  if (typeof entry === 'string') {
    const spec = newHash();
    spec[/^https?:\/\//.test(entry) ? 'remote' : 'local'] = entry;
    return spec;
  }
  if (isHash(entry)) return entry;
  throw new ConfigError(`Include \`${JSON.stringify(entry)}\` needs to match exactly one accessor!`);
}

function resolveInclude(entry: unknown, run: IncludeRun): Hash[] {
  const spec = normalizeInclude(entry);
  const { rules: _rules, inputs: _inputs, ...location } = spec;
  if (ACCESSORS.filter((k) => spec[k] !== undefined).length !== 1) throw new ConfigError(`Include \`${JSON.stringify(location)}\` needs to match exactly one accessor!`);
  if (!includeAllowed(spec.rules, run)) return [];
  const text = (v: unknown) => expandVariables(String(v), run.vars);
  const yamlOnly = (where: string) => {
    if (!YAML_EXT.test(where)) throw new ConfigError(`Included file \`${where}\` does not have YAML extension!`);
  };
  if (spec.local !== undefined) {
    const written = text(spec.local);
    yamlOnly(written);
    const path = written.replace(/^\/+/, '');
    // A wildcard names every matching file, each included as if written out.
    const found = path.includes('*') ? run.input.paths().filter((p) => globMatch(path, p)).sort() : null;
    const locations = found ? found.map((p) => ({ written: p, path: p })) : [{ written, path }];
    return locations.map((l) => {
      noteInclude(run, 'local', l.written, l.path);
      const content = run.input.readFile(l.path);
      if (content === undefined) throw new ConfigError(`Local file \`${l.written}\` does not exist!`);
      return loadIncluded(content, l.written, 'Local file', spec.inputs);
    });
  }
  if (spec.remote !== undefined) {
    const where = text(spec.remote);
    yamlOnly(where);
    throw new ConfigError(`Remote file \`${where}\` could not be fetched: remote includes are not emulated`);
  }
  if (spec.template !== undefined) {
    const where = text(spec.template);
    yamlOnly(where);
    throw new ConfigError(`Template file \`${where}\` is not a valid location!`);
  }
  if (spec.project !== undefined) {
    const files = Array.isArray(spec.file) ? spec.file : [spec.file];
    throw new ConfigError(`Project \`${text(spec.project)}\` file \`${text(files[0] ?? '')}\` could not be read: project includes are not emulated`);
  }
  if (spec.artifact !== undefined) {
    throw new ConfigError(`Artifact \`${text(spec.artifact)}\` could not be read: artifact includes are only for child pipelines`);
  }
  throw new ConfigError(`Component \`${text(spec.component)}\` could not be read: component includes are not emulated`);
}

function noteInclude(run: IncludeRun, type: string, location: string, path: string): void {
  if (run.records.length >= MAX_INCLUDES) throw new ConfigError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
  const key = JSON.stringify({ [type]: location });
  if (run.seen.has(key)) throw new ConfigError(`Include \`${key}\` was already included!`);
  run.seen.add(key);
  const p = run.input.project;
  run.records.push({
    type, location, blob: linkOf(run.input, 'blob', path), raw: linkOf(run.input, 'raw', path), extra: {},
    context_project: p?.fullPath ?? null, context_sha: p?.sha ?? null,
  });
}

/** Config::Extendable: each key's `extends` bases deep-merged under it, bases first, up to 10 levels. */
const MAX_EXTENDS_NESTING = 10;

function extendAll(config: Hash): Hash {
  const out = newHash();
  for (const [k, v] of Object.entries(config)) out[k] = v;
  const done = new Set<string>();
  const extend = (key: string, path: string[]): Hash => {
    const value = out[key];
    if (!isHash(value) || done.has(key) || value.extends === undefined) return value as Hash;
    if (path.includes(key)) throw new ConfigError(`${path[0]}: circular dependency detected in \`extends\``);
    if (path.length >= MAX_EXTENDS_NESTING) throw new ConfigError(`${path[0]}: nesting too deep in \`extends\``);
    const bases = (Array.isArray(value.extends) ? value.extends : [value.extends]).filter((b): b is string => typeof b === 'string');
    const unknown = bases.filter((b) => !Object.hasOwn(out, b));
    if (unknown.length) throw new ConfigError(`${key}: unknown keys in \`extends\` (${unknown.join(', ')})`);
    const invalid = bases.filter((b) => !isHash(out[b]));
    if (invalid.length) throw new ConfigError(`${key}: invalid base hashes in \`extends\` (${invalid.join(', ')})`);
    let merged = newHash();
    for (const b of bases) merged = deepMerge(merged, extend(b, [...path, key]));
    const result = deepMerge(merged, value);
    out[key] = result;
    done.add(key);
    return result;
  };
  for (const key of Object.keys(out)) extend(key, []);
  return out;
}

/** Yaml::Tags::Resolver: every `!reference` replaced by what its path names, up to 10 levels deep. */
const MAX_REFERENCE_DEPTH = 10;

function resolveReferences(config: Hash): Hash {
  const walk = (v: unknown, depth: number, chain: string[]): unknown => {
    if (v instanceof Reference) {
      const label = v.toString();
      if (chain.includes(label)) throw new ConfigError(`${label} is part of a circular chain`);
      if (depth >= MAX_REFERENCE_DEPTH) throw new ConfigError(`${label} is nested too deep`);
      let target: unknown = config;
      for (const part of v.path) {
        if (!isHash(target) || !Object.hasOwn(target, String(part))) throw new ConfigError(`${label} could not be found`);
        target = target[String(part)];
      }
      return walk(target, depth + 1, [...chain, label]);
    }
    if (Array.isArray(v)) {
      // A reference to a list inside a list is spliced one level (as GitLab flattens script arrays later).
      return v.map((x) => walk(x, depth, chain));
    }
    if (isHash(v)) {
      const out = newHash();
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, depth, chain);
      return out;
    }
    return v;
  };
  return walk(config, 0, []) as Hash;
}

/** EdgeStagesInjector: `.pre` first and `.post` last in a given `stages`. */
function injectEdgeStages(config: Hash): Hash {
  if (!Array.isArray(config.stages)) return config;
  const stages = config.stages.filter((s) => s !== '.pre' && s !== '.post');
  const out = newHash();
  for (const [k, v] of Object.entries(config)) out[k] = k === 'stages' ? ['.pre', ...stages, '.post'] : v;
  return out;
}

export interface LoadedConfig {
  config: Hash;
  includes: IncludeRecord[];
}

/** The merged configuration, or a ConfigError with GitLab's message. */
export function loadConfig(input: CompileInput): LoadedConfig {
  if (input.yaml.trim() === '') throw new ConfigError('Please provide content of .gitlab-ci.yml');
  const loaded = loadYaml(interpolate(input.yaml, input.inputs));
  if (!loaded.ok) throw new ConfigError(loaded.error);
  if (!isHash(loaded.value)) throw new ConfigError('Invalid configuration format');
  const run: IncludeRun = { input, vars: input.variables, records: [], seen: new Set() };
  let config = processIncludes(loaded.value, run, 0);
  config = extendAll(config);
  config = resolveReferences(config);
  config = injectEdgeStages(config);
  return { config, includes: run.records };
}
