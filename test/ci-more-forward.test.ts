// `trigger:forward:` (Gitlab::Ci::Variables::Downstream::Generator): a trigger job hands its child
// or multi-project pipeline its YAML variables (global and its own) unless `yaml_variables: false`,
// and the upstream pipeline's own variables only with `pipeline_variables: true`; a later one of
// a key wins. They are the downstream pipeline's own variables, which its rules read.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const CHILD = 'only_when_api:\n  script: [make]\n  rules:\n    - if: $API_VAR == "x"\nalways:\n  script: [make]\n';
const LIB_CI = 'unit:\n  script: [make]\n';
const bridge = (name: string, target: string, forward: string) =>
  `${name}:\n  variables:\n    OWN: o\n    SHARED: job\n  trigger:\n    ${target}\n${forward ? `    forward:\n${forward}` : ''}`;
const APP_CI = [
  'variables:\n  GLOBAL: g\n',
  bridge('child_default', 'include: child.yml', ''),
  bridge('child_all', 'include: child.yml', '      pipeline_variables: true\n'),
  bridge('child_none', 'include: child.yml', '      yaml_variables: false\n'),
  bridge('lib_all', 'project: acme/lib', '      yaml_variables: true\n      pipeline_variables: true\n'),
  bridge('lib_default', 'project: acme/lib', ''),
].join('');

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    { namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, repository: { files: { '.gitlab-ci.yml': APP_CI, 'child.yml': CHILD } } },
    { namespace: 'acme', path: 'lib', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, repository: { files: { '.gitlab-ci.yml': LIB_CI } } },
  ],
};
const P = '/projects/acme%2Fapp';

describe('trigger:forward', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, json?: unknown, token = 'maintainer-token') => jsonCall(world(), path, { method, token, json });
  type Downstream = { status: string; project: string; variables: [string, string][]; jobs: string[] };

  async function downstreams(): Promise<Record<string, Downstream | string>> {
    const made = await call('POST', `${P}/pipeline`, { ref: 'main', variables: [{ key: 'API_VAR', value: 'x' }, { key: 'SHARED', value: 'pipeline' }] });
    expect(made.status).toBe(201);
    await world().settled();
    const bridges = (await call('GET', `${P}/pipelines/${made.body.id}/bridges`)).body as { name: string; status: string; failure_reason?: string; downstream_pipeline: { id: number; project_id: number } | null }[];
    const out: Record<string, Downstream | string> = {};
    for (const b of bridges) {
      if (!b.downstream_pipeline) {
        out[b.name] = `${b.status}: ${b.failure_reason}`;
        continue;
      }
      const d = b.downstream_pipeline;
      const vars = (await call('GET', `/projects/${d.project_id}/pipelines/${d.id}/variables`)).body as { key: string; value: string }[];
      const jobs = (await call('GET', `/projects/${d.project_id}/pipelines/${d.id}/jobs`)).body as { name: string }[];
      out[b.name] = { status: b.status, project: String(d.project_id), variables: vars.map((v) => [v.key, v.value]), jobs: jobs.map((j) => j.name).sort() };
    }
    return out;
  }

  it('hands on the job\'s YAML variables by default, the pipeline\'s only when asked', async () => {
    const d = await downstreams();
    const app = String((await call('GET', P)).body.id);
    const lib = String((await call('GET', '/projects/acme%2Flib')).body.id);
    expect(d.child_default).toEqual({ status: 'success', project: app, variables: [['GLOBAL', 'g'], ['OWN', 'o'], ['SHARED', 'job']], jobs: ['always'] });
    // The pipeline's SHARED comes later, so it wins; the child's rules see API_VAR.
    expect(d.child_all).toEqual({ status: 'success', project: app, variables: [['GLOBAL', 'g'], ['OWN', 'o'], ['API_VAR', 'x'], ['SHARED', 'pipeline']], jobs: ['always', 'only_when_api'] });
    expect(d.child_none).toEqual({ status: 'success', project: app, variables: [], jobs: ['always'] });
    expect(d.lib_all).toEqual({ status: 'success', project: lib, variables: [['GLOBAL', 'g'], ['OWN', 'o'], ['API_VAR', 'x'], ['SHARED', 'pipeline']], jobs: ['unit'] });
    expect(d.lib_default).toEqual({ status: 'success', project: lib, variables: [['GLOBAL', 'g'], ['OWN', 'o'], ['SHARED', 'job']], jobs: ['unit'] });
  });

  it('lint checks forward\'s keys and values', async () => {
    const content = 'a:\n  trigger:\n    include: child.yml\n    forward:\n      yaml_variables: yes please\n      other: true\n';
    const lint = (await call('POST', `${P}/ci/lint`, { content })).body;
    expect(lint.valid).toBe(false);
    expect(lint.errors).toEqual(expect.arrayContaining(['jobs:a:trigger:forward config contains unknown keys: other', 'jobs:a:trigger:forward yaml variables should be a boolean value']));
  });
});
