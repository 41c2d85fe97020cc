// A property of the compiler: random .gitlab-ci.yml files built from stages, rules, only/except,
// needs and workflow:rules, compiled for random refs, sources and variables, keep the jobs a plain
// model of GitLab's selection keeps (Build::Rules, Build::Policy::Refs, Seed::Build needs).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePipeline, type PipelineSource } from '../src/families/ci/config/index.js';

type Cond =
  | { k: 'eq'; v: 'A' | 'B' | 'CI_PIPELINE_SOURCE' | 'CI_COMMIT_REF_NAME'; s: string; neg: boolean }
  | { k: 're'; v: 'A' | 'CI_COMMIT_REF_NAME'; prefix: string; neg: boolean }
  | { k: 'set'; v: 'A' | 'B' }
  | { k: 'and' | 'or'; l: Cond; r: Cond };

interface Rule { if: Cond | null; when: 'on_success' | 'manual' | 'never' | 'always' | null }
interface Job {
  stage: number;
  rules: Rule[] | null;
  only: string[] | null;
  except: string[] | null;
  needs: { job: number; optional: boolean }[];
  when: 'on_success' | 'manual';
  parallel: number | null;
}
interface Pipeline {
  ref: { kind: 'branch' | 'tag' | 'mr'; name: string };
  source: PipelineSource;
  A: string | null;
  B: string | null;
}

const STAGES = ['build', 'test', 'deploy'];
const REFS = ['branches', 'tags', 'main', 'pushes', 'merge_requests', 'schedules', 'web', '/^rel/'];
const VALUES = ['main', 'release-1', 'x', 'y', 'push', 'web', 'schedule', 'merge_request_event', 'feature'];

const cond: fc.Arbitrary<Cond> = fc.letrec<{ c: Cond }>((tie) => ({
  c: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ k: fc.constant('eq' as const), v: fc.constantFrom('A' as const, 'B' as const, 'CI_PIPELINE_SOURCE' as const, 'CI_COMMIT_REF_NAME' as const), s: fc.constantFrom(...VALUES), neg: fc.boolean() }),
    fc.record({ k: fc.constant('re' as const), v: fc.constantFrom('A' as const, 'CI_COMMIT_REF_NAME' as const), prefix: fc.constantFrom('ma', 'rel', 'x', 'f'), neg: fc.boolean() }),
    fc.record({ k: fc.constant('set' as const), v: fc.constantFrom('A' as const, 'B' as const) }),
    fc.record({ k: fc.constantFrom('and' as const, 'or' as const), l: tie('c'), r: tie('c') }),
  ),
})).c;

const rule: fc.Arbitrary<Rule> = fc.record({ if: fc.option(cond, { nil: null }), when: fc.constantFrom('on_success' as const, 'manual' as const, 'never' as const, 'always' as const, null) });

function jobArb(index: number, stageCount: number): fc.Arbitrary<Job> {
  return fc.record({
    stage: fc.integer({ min: 0, max: stageCount - 1 }),
    rules: fc.option(fc.array(rule, { minLength: 1, maxLength: 3 }), { nil: null }),
    only: fc.option(fc.subarray(REFS, { minLength: 1 }), { nil: null }),
    except: fc.option(fc.subarray(REFS, { minLength: 1 }), { nil: null }),
    needs: index === 0 ? fc.constant([]) : fc.uniqueArray(fc.record({ job: fc.integer({ min: 0, max: index - 1 }), optional: fc.boolean() }), { selector: (n) => n.job, maxLength: 2 }),
    when: fc.constantFrom('on_success' as const, 'manual' as const),
    parallel: fc.option(fc.integer({ min: 2, max: 3 }), { nil: null, freq: 4 }),
  });
}

const config = fc.integer({ min: 1, max: 3 }).chain((stageCount) =>
  fc.integer({ min: 1, max: 6 }).chain((n) =>
    fc.record({
      stageCount: fc.constant(stageCount),
      jobs: fc.tuple(...Array.from({ length: n }, (_, i) => jobArb(i, stageCount))),
      workflow: fc.option(fc.array(rule, { minLength: 1, maxLength: 2 }), { nil: null }),
    }),
  ),
).map((cfg) => ({
  ...cfg,
  // A need names a job of the same or an earlier stage (anything else is a lint error, tested elsewhere).
  jobs: cfg.jobs.map((j) => ({ ...j, needs: j.needs.filter((n) => cfg.jobs[n.job]!.stage <= j.stage) })),
}));

const pipeline: fc.Arbitrary<Pipeline> = fc.record({
  ref: fc.oneof(
    fc.record({ kind: fc.constant('branch' as const), name: fc.constantFrom('main', 'release-1', 'feature') }),
    fc.record({ kind: fc.constant('tag' as const), name: fc.constantFrom('v1', 'release-2') }),
    fc.record({ kind: fc.constant('mr' as const), name: fc.constantFrom('feature', 'release-3') }),
  ),
  source: fc.constantFrom<PipelineSource>('push', 'web', 'schedule', 'api'),
  A: fc.option(fc.constantFrom('x', 'y', 'main'), { nil: null }),
  B: fc.option(fc.constantFrom('x', 'y'), { nil: null }),
});

// Rendering to YAML.
function render(c: Cond): string {
  switch (c.k) {
    case 'eq': return `$${c.v} ${c.neg ? '!=' : '=='} "${c.s}"`;
    case 're': return `$${c.v} ${c.neg ? '!~' : '=~'} /^${c.prefix}/`;
    case 'set': return `$${c.v}`;
    default: return `(${render(c.l)}) ${c.k === 'and' ? '&&' : '||'} (${render(c.r)})`;
  }
}
const q = (s: string) => JSON.stringify(s);
function renderRules(rules: Rule[], indent: string, fallback = 'on_success'): string[] {
  return rules.flatMap((r) => {
    const lines: string[] = [];
    if (r.if) lines.push(`if: ${q(render(r.if))}`);
    if (r.when) lines.push(`when: ${r.when}`);
    if (!lines.length) lines.push(`when: ${fallback}`);
    return lines.map((l, i) => `${indent}${i === 0 ? '- ' : '  '}${l}`);
  });
}
function yamlOf(cfg: { stageCount: number; jobs: Job[]; workflow: Rule[] | null }): string {
  const out = [`stages: [${STAGES.slice(0, cfg.stageCount).join(', ')}]`];
  if (cfg.workflow) out.push('workflow:', '  rules:', ...renderRules(cfg.workflow.map((r) => ({ ...r, when: r.when === 'never' ? 'never' : r.when && 'always' })), '    ', 'always'));
  cfg.jobs.forEach((j, i) => {
    out.push(`j${i}:`, `  stage: ${STAGES[j.stage]}`, '  script: run', `  when: ${j.when}`);
    if (j.parallel) out.push(`  parallel: ${j.parallel}`);
    if (j.rules) out.push('  rules:', ...renderRules(j.rules, '    '));
    else {
      if (j.only) out.push(`  only: [${j.only.map(q).join(', ')}]`);
      if (j.except) out.push(`  except: [${j.except.map(q).join(', ')}]`);
    }
    if (j.needs.length) out.push(`  needs: [${j.needs.map((n) => `{ job: j${n.job}, optional: ${n.optional} }`).join(', ')}]`);
  });
  return out.join('\n');
}

// The model.
function variablesOf(p: Pipeline): Record<string, string> {
  const source = p.ref.kind === 'mr' ? 'merge_request_event' : p.source;
  const v: Record<string, string> = { CI_PIPELINE_SOURCE: source, CI_COMMIT_REF_NAME: p.ref.name, CI_PROJECT_PATH: 'acme/app' };
  if (p.ref.kind === 'branch') v.CI_COMMIT_BRANCH = p.ref.name;
  if (p.ref.kind === 'tag') v.CI_COMMIT_TAG = p.ref.name;
  if (p.A !== null) v.A = p.A;
  if (p.B !== null) v.B = p.B;
  return v;
}
function holds(c: Cond, v: Record<string, string>): boolean {
  const val = (name: string) => v[name];
  switch (c.k) {
    case 'eq': return (val(c.v) === c.s) !== c.neg;
    case 're': return (val(c.v) ?? '').startsWith(c.prefix) !== c.neg;
    case 'set': return val(c.v) !== undefined && val(c.v) !== '';
    case 'and': return holds(c.l, v) && holds(c.r, v);
    case 'or': return holds(c.l, v) || holds(c.r, v);
  }
}
function refMatches(pattern: string, p: Pipeline, source: string): boolean {
  const branch = p.ref.kind === 'branch';
  const tag = p.ref.kind === 'tag';
  if (pattern === 'branches') return branch;
  if (pattern === 'tags') return tag;
  if (pattern === 'pushes') return source === 'push';
  if (pattern === 'merge_requests') return source === 'merge_request_event';
  if (pattern === 'schedules') return source === 'schedule';
  if (pattern === 'web') return source === 'web';
  if (!branch && !tag) return false;
  if (pattern === '/^rel/') return p.ref.name.startsWith('rel');
  return pattern === p.ref.name;
}
interface Kept { name: string; when: string; allowFailure: boolean }

const instanceNames = (j: Job, i: number) => (j.parallel ? Array.from({ length: j.parallel }, (_, k) => `j${i} ${k + 1}/${j.parallel}`) : [`j${i}`]);

function model(cfg: { stageCount: number; jobs: Job[]; workflow: Rule[] | null }, p: Pipeline): { created: boolean; error: boolean; jobs: Kept[] } {
  const v = variablesOf(p);
  if (cfg.workflow) {
    const r = cfg.workflow.find((x) => !x.if || holds(x.if, v));
    if (!r || r.when === 'never') return { created: false, error: true, jobs: [] };
  }
  // The `when` each job gets, null when it is left out.
  const whens = cfg.jobs.map((j): string | null => {
    if (j.rules) {
      const r = j.rules.find((x) => !x.if || holds(x.if, v));
      // A rule of neither `if` nor `when` is written `when: on_success`.
      const when = r ? r.when ?? (r.if ? j.when : 'on_success') : 'never';
      return when === 'never' ? null : when;
    }
    const only = j.only ?? (cfg.workflow ? null : ['branches', 'tags']);
    if (only && !only.some((x) => refMatches(x, p, v.CI_PIPELINE_SOURCE!))) return null;
    if (j.except && j.except.some((x) => refMatches(x, p, v.CI_PIPELINE_SOURCE!))) return null;
    return j.when;
  });
  const indexes = cfg.jobs.map((_, i) => i).filter((i) => whens[i] !== null);
  if (!indexes.length) return { created: false, error: true, jobs: [] };
  const broken = indexes.some((i) => cfg.jobs[i]!.needs.some((n) => !n.optional && whens[n.job] === null));
  if (broken) return { created: true, error: true, jobs: [] };
  indexes.sort((a, b) => cfg.jobs[a]!.stage - cfg.jobs[b]!.stage || a - b);
  // A manual job is allowed to fail when `when: manual` is the job's own (not a rule's).
  const jobs = indexes.flatMap((i) => instanceNames(cfg.jobs[i]!, i).map((name) => ({ name, when: whens[i]!, allowFailure: cfg.jobs[i]!.when === 'manual' })));
  return { created: true, error: false, jobs };
}

describe('job selection against a plain model', () => {
  it('keeps the jobs the model keeps, for any file and pipeline', () => {
    fc.assert(
      fc.property(config, pipeline, (cfg, p) => {
        const v = variablesOf(p);
        const c = compilePipeline({
          yaml: yamlOf(cfg), readFile: () => undefined, paths: () => [], variables: v, source: v.CI_PIPELINE_SOURCE as PipelineSource,
        });
        const m = model(cfg, p);
        expect(c.errors.length > 0).toBe(m.error);
        expect(c.created).toBe(m.created);
        expect(c.jobs.map((j) => ({ name: j.name, when: j.when, allowFailure: j.allowFailure }))).toEqual(m.jobs);
        // A kept job's needs name kept jobs: every instance of a parallel job it needs.
        const names = new Set(c.jobs.map((j) => j.name));
        for (const j of c.jobs) for (const n of j.needs ?? []) expect(names.has(n.name)).toBe(true);
        for (const j of c.jobs) {
          const i = Number(/^j(\d+)/.exec(j.name)![1]);
          const keptBase = new Set(m.jobs.map((k) => k.name.split(' ')[0]));
          const expected = cfg.jobs[i]!.needs.filter((n) => keptBase.has(`j${n.job}`)).flatMap((n) => instanceNames(cfg.jobs[n.job]!, n.job));
          expect((j.needs ?? []).map((n) => n.name)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
