// Property tests against plain models: the `ci` push options as Gitlab::PushOptions and
// BaseHooksService read them, and what a trigger job forwards (Downstream::Generator's
// `reverse.uniq.reverse`: the last of a key wins, in the place of its last occurrence).
import '../src/index.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ciPushOptions } from '../src/families/ci/pipeline-routes.js';
import { downstreamVariables } from '../src/families/ci/forward.js';

const key = fc.constantFrom('A', 'B', 'C', 'skip', 'variable', '');
const text = fc.constantFrom('', 'x', '1', 'a=b', '=', ' y ');

describe('ci push options', () => {
  it('are what the plain model of Gitlab::PushOptions and pipeline_options gives', () => {
    const option = fc.oneof(
      fc.tuple(fc.constantFrom('ci', 'mr', 'merge_request', ' ci '), key, fc.option(text)).map(([ns, k, v]) => `${ns}.${k}${v === null ? '' : `=${v}`}`),
      fc.constantFrom('ci-skip', 'ci.skip', 'junk', 'ci.'),
    );
    fc.assert(fc.property(fc.array(option, { maxLength: 8 }), (options) => {
      let skip = false;
      const vars: [string, string][] = [];
      for (const o of options) {
        if (o === 'ci-skip') skip = true;
        const dot = o.indexOf('.');
        if (dot <= 0) continue;
        const ns = o.slice(0, dot).trim();
        const rest = o.slice(dot + 1);
        const eq = rest.indexOf('=');
        const k = (eq < 0 ? rest : rest.slice(0, eq)).trim();
        const value = eq < 0 ? '' : rest.slice(eq + 1).trim();
        if (ns !== 'ci' || k === '') continue;
        if (k === 'skip') skip = true;
        if (k !== 'variable' || !value.includes('=')) continue;
        const name = value.slice(0, value.indexOf('='));
        if (name.trim() === '') continue;
        const at = vars.findIndex(([n]) => n === name);
        if (at >= 0) vars[at] = [name, value.slice(value.indexOf('=') + 1)];
        else vars.push([name, value.slice(value.indexOf('=') + 1)]);
      }
      const got = ciPushOptions(options);
      expect(got.skip).toBe(skip);
      expect(got.variables.map((v) => [v.key, v.value])).toEqual(vars);
    }));
  });
});

describe('forwarded variables', () => {
  it('keep the last of each key, YAML variables before pipeline variables, each only when forwarded', () => {
    const pairs = fc.array(fc.tuple(fc.constantFrom('A', 'B', 'C', '__proto__'), fc.constantFrom('1', '2', '3')), { maxLength: 6 });
    fc.assert(fc.property(pairs, pairs, fc.boolean(), fc.boolean(), fc.boolean(), (yaml, upstream, hasForward, yamlOn, pipelineOn) => {
      const variables = Object.create(null) as Record<string, string>;
      for (const [k, v] of yaml) variables[k] = v;
      const forward = hasForward ? { yamlVariables: yamlOn, pipelineVariables: pipelineOn } : undefined;
      const plan = { variables, trigger: { include: ['c.yml'], project: null, branch: null, strategy: null, ...(forward ? { forward } : {}) } };
      const up = upstream.map(([k, v]) => ({ key: k, value: v, variableType: 'env_var' as const }));
      // The model: the list in order, reversed, first of each key kept, reversed again.
      const all = [
        ...((forward?.yamlVariables ?? true) ? Object.entries(variables) : []),
        ...((forward?.pipelineVariables ?? false) ? upstream : []),
      ];
      const seen = new Set<string>();
      const model = [...all].reverse().filter(([k]) => (seen.has(k) ? false : (seen.add(k), true))).reverse();
      expect(downstreamVariables(plan, up).map((v) => [v.key, v.value])).toEqual(model);
    }));
  });
});
