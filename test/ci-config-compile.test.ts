// The .gitlab-ci.yml compiler (lib/gitlab/ci/config/**, yaml_processor.rb, build/rules,
// pipeline/expression): compilePipeline on files, refs, sources and variables, table by table.
import { describe, expect, it } from 'vitest';
import { compilePipeline, lintConfig, type CompileInput, type PipelineSource } from '../src/families/ci/config/index.js';

const BRANCH = { CI_COMMIT_BRANCH: 'main', CI_COMMIT_REF_NAME: 'main', CI_DEFAULT_BRANCH: 'main', CI_PIPELINE_SOURCE: 'push', CI_PROJECT_PATH: 'acme/app' };
const TAG = { CI_COMMIT_TAG: 'v1.0.0', CI_COMMIT_REF_NAME: 'v1.0.0', CI_DEFAULT_BRANCH: 'main', CI_PIPELINE_SOURCE: 'push', CI_PROJECT_PATH: 'acme/app' };
const MR = {
  CI_COMMIT_REF_NAME: 'feature', CI_DEFAULT_BRANCH: 'main', CI_PIPELINE_SOURCE: 'merge_request_event', CI_PROJECT_PATH: 'acme/app',
  CI_MERGE_REQUEST_IID: '1', CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
};

function input(yaml: string, opts: { vars?: Record<string, string>; source?: PipelineSource; files?: Record<string, string>; changed?: string[] } = {}): CompileInput {
  const files = opts.files ?? {};
  return {
    yaml,
    readFile: (p) => (Object.hasOwn(files, p) ? files[p] : undefined),
    paths: () => Object.keys(files),
    changedPaths: opts.changed,
    variables: opts.vars ?? BRANCH,
    source: opts.source ?? 'push',
  };
}

const names = (yaml: string, opts: Parameters<typeof input>[1] = {}) => {
  const c = compilePipeline(input(yaml, opts));
  expect(c.errors).toEqual([]);
  return c.jobs.map((j) => j.name);
};
const errors = (yaml: string, opts: Parameters<typeof input>[1] = {}) => compilePipeline(input(yaml, opts)).errors;

describe('entries: GitLab\'s messages for bad keys and values', () => {
  const table: [string, string, string[]][] = [
    ['an unknown job key', 'test:\n  script: x\n  foo: 1\n', ['jobs:test config contains unknown keys: foo']],
    ['no visible job', '.hidden:\n  script: x\n', ['jobs config should contain at least one visible job']],
    ['only globals', 'image: ruby:3\nservices: [postgres]\n', ['jobs config should contain at least one visible job']],
    ['a key that is no job', 'test:\n  script: x\nrubocop:\n  stage: test\n', ['jobs rubocop config should implement the script:, run:, or trigger: keyword']],
    ['a bad when', 'test:\n  script: x\n  when: later\n', ['jobs:test when should be one of: on_success, on_failure, always, manual, delayed']],
    ['delayed without start_in', 'test:\n  script: x\n  when: delayed\n', ['jobs:test start in should be a duration']],
    ['start_in beyond a week', 'test:\n  script: x\n  when: delayed\n  start_in: 8 days\n', ['jobs:test start in should not exceed the limit']],
    ['start_in without delayed', 'test:\n  script: x\n  start_in: 1 hour\n', ['jobs:test start in must be blank']],
    ['only with rules', 'test:\n  script: x\n  only: [main]\n  rules:\n    - when: always\n', ['jobs:test config key may not be used with `rules`: only']],
    ['a bad rule expression', 'test:\n  script: x\n  rules:\n    - if: $A ==\n', ['jobs:test:rules:rule if invalid expression syntax']],
    ['an unknown rule key', 'test:\n  script: x\n  rules:\n    - if: $A\n      foo: 1\n', ['jobs:test:rules:rule config contains unknown keys: foo']],
    ['a bad rule when', 'test:\n  script: x\n  rules:\n    - when: later\n', ['jobs:test:rules:rule when unknown value: later']],
    ['a workflow rule when manual', 'workflow:\n  rules:\n    - when: manual\ntest:\n  script: x\n', ['workflow:rules:rule when unknown value: manual']],
    ['an unknown workflow key', 'workflow:\n  foo: 1\ntest:\n  script: x\n', ['workflow config contains unknown keys: foo']],
    ['a script of a hash', 'test:\n  script: { a: 1 }\n', ['jobs:test:script config should be a string or a nested array of strings up to 10 levels deep']],
    ['tags of a string', 'test:\n  script: x\n  tags: docker\n', ['jobs:test:tags config should be an array of strings']],
    ['a bad environment action', 'test:\n  script: x\n  environment: { name: prod, action: deploy }\n', ['jobs:test:environment action should be start, stop, prepare, verify, or access']],
    ['an unknown artifacts key', 'test:\n  script: x\n  artifacts: { paths: [a], keep: 1 }\n', ['jobs:test:artifacts config contains unknown keys: keep']],
    ['retry of 3', 'test:\n  script: x\n  retry: 3\n', ['jobs:test:retry config must be less than or equal to 2']],
    ['a bad timeout', 'test:\n  script: x\n  timeout: soon\n', ['jobs:test:timeout config should be a duration']],
    ['parallel of 201', 'test:\n  script: x\n  parallel: 201\n', ['jobs:test:parallel config must be less than or equal to 200']],
    ['stages of a string', 'stages: build\ntest:\n  script: x\n', ['stages config should be an array of strings or a nested array of strings up to 10 levels deep']],
    ['an unknown default key', 'default:\n  stage: x\ntest:\n  script: x\n', ['default config contains unknown keys: stage']],
    ['the job name downcased', 'Test:\n  script: x\n  Foo: 1\n', ['jobs:test config contains unknown keys: foo']],
    ['a bad only', 'test:\n  script: x\n  only: main\n', ['jobs:test:only has to be either an array of conditions or a hash']],
    ['a bad only:variables', 'test:\n  script: x\n  only:\n    variables: ["$A =="]\n', ['jobs:test:only variables invalid expression syntax']],
    ['an empty script', 'test:\n  script: []\n', ["jobs:test script can't be blank"]],
    ['services of a string', 'test:\n  script: x\n  services: postgres\n', ['jobs:test:services config should be a array']],
    ['nested stages are flattened, but not numbers', 'stages: [true, test]\nrspec:\n  script: test\n', ['stages config should be an array of strings or a nested array of strings up to 10 levels deep']],
    ['artifacts when', 'rspec:\n  script: test\n  artifacts: { when: 1 }\n', ['jobs:rspec:artifacts when should be one of: on_success, on_failure, always']],
    ['an empty job name', '"":\n  script: test\n', ["jobs:job name can't be blank"]],
    ['unknown keys and rules of a hash', 'rspec:\n  script: test\n  bad_tags: mysql\n  rules: { wrong: format }\n', ['jobs:rspec rules should be an array containing hashes and arrays of hashes', 'jobs:rspec config contains unknown keys: bad_tags']],
    ['a job\'s own error hides its entries\' errors', 'test:\n  script: { a: 1 }\n  foo: 1\n', ['jobs:test config contains unknown keys: foo']],
    ['a bad default, once', 'default:\n  tags: docker\na:\n  script: x\nb:\n  script: x\n', ['default:tags config should be an array of strings']],
    ['a bad root image', 'image: [a]\na:\n  script: x\n', ['image config should be a hash or a string']],
    ['a variable of a list', 'variables:\n  A: [1]\na:\n  script: x\n', ['variable definition must be either a string or a hash']],
    ['a need of an unsupported type', 'a:\n  script: x\n  needs: [1]\n', ['jobs:a:needs:need has an unsupported type']],
    ['parallel of a string', 'a:\n  script: x\n  parallel: many\n', ['jobs:a:parallel should be an integer or a hash']],
    ['retry max of 5', 'a:\n  script: x\n  retry: { max: 5 }\n', ['jobs:a:retry max must be less than or equal to 2']],
    ['dependencies outside needs', 'a:\n  stage: build\n  script: x\nb:\n  stage: build\n  script: x\nc:\n  script: x\n  needs: [a]\n  dependencies: [a, b]\n', ['jobs:c dependencies the b should be part of needs']],
    ['an artifact include without its job', 'build1:\n  stage: build\n  script: test\ntest1:\n  trigger:\n    include: [{ artifact: generated.yml }]\n', ['jobs:test1:trigger:include config must specify the job where to fetch the artifact from']],
    ['a cross-pipeline need with an unknown key', 'rspec:\n  script: rspec\n  needs:\n    - pipeline: $THE_PIPELINE_ID\n      job: dependency-job\n      something: else\n', ['jobs:rspec:needs:need config contains unknown keys: something']],
    ['cache paths of a string', 'cache: { paths: string }\nrspec:\n  script: test\n', ['cache:paths config should be an array of strings']],
    ['a job cache key of a number list', 'rspec:\n  script: test\n  cache: { key: { files: [] } }\n', ['jobs:rspec:cache:key:files config requires at least 1 item']],
    ['a cache key with only a prefix', 'rspec:\n  script: test\n  cache: { key: { prefix: p } }\n', ['jobs:rspec:cache:key config must use exactly one of these keys: files, files_commits']],
    ['rules changes of numbers', 'a:\n  script: x\n  rules:\n    - changes: [1]\n', ['jobs:a:rules:rule:changes config should be an array of strings']],
    ['the removed type keyword', 'a:\n  script: x\n  type: test\n', ['jobs:a config contains unknown keys: type']],
    ['allow_failure of a string', 'test:\n  script: x\n  allow_failure: maybe\n', ['jobs:test allow failure should be a hash or a boolean value']],
  ];
  it.each(table)('%s', (_name, yaml, expected) => {
    expect(errors(yaml)).toEqual(expected);
  });

  it('warns about a last rule of a bare when without workflow:rules', () => {
    const c = compilePipeline(input('job:\n  script: ls\n  rules:\n    - when: always\n'));
    expect(c.errors).toEqual([]);
    expect(c.warnings).toEqual([
      'jobs:job may allow multiple pipelines to run for a single action due to `rules:when` clause with no `workflow:rules` - read more: https://docs.gitlab.com/ee/ci/jobs/job_troubleshooting.html#job-may-allow-multiple-pipelines-to-run-for-a-single-action-warning',
    ]);
    expect(compilePipeline(input('workflow:\n  rules:\n    - when: always\njob:\n  script: ls\n  rules:\n    - when: always\n')).warnings).toEqual([]);
  });
});

describe('logical checks of the processor', () => {
  const table: [string, string, string][] = [
    ['an unknown stage', 'test:\n  script: x\n  stage: nope\n', 'test job: chosen stage nope does not exist; available stages are .pre, build, test, deploy, .post'],
    ['custom stages keep .pre and .post', 'stages: [one]\ntest:\n  script: x\n', 'test job: chosen stage test does not exist; available stages are .pre, one, .post'],
    ['an undefined need', 'test:\n  script: x\n  needs: [build]\n', 'test job: undefined need: build'],
    ['a need in a later stage', 'a:\n  stage: build\n  script: x\n  needs: [b]\nb:\n  stage: deploy\n  script: x\n', 'a job: need b is not defined in current or prior stages'],
    ['an undefined dependency', 'test:\n  script: x\n  dependencies: [build]\n', 'test job: undefined dependency: build'],
    ['duplicated needs', 'a:\n  script: x\nb:\n  script: x\n  needs: [a, a]\n', 'b has the following needs duplicated: a.'],
    ['a need cycle', 'job_a:\n  script: build\n  needs: [job_c]\njob_b:\n  script: test\n  needs: [job_a]\njob_c:\n  script: deploy\n  needs: [job_b]\n', 'The pipeline has circular dependencies: topological sort failed: ["job_a", "job_c", "job_b"]'],
    ['a self-dependency', 'job_0:\n  script: build\njob:\n  script: build\n  needs: [job_0, job]\n', 'The pipeline has circular dependencies: self-dependency: job'],
    ['YAML GitLab cannot read', 'invalid: yaml: test\n', '(<unknown>): mapping values are not allowed in this context at line 1 column 10'],
    ['an unknown alias', 'steps: *bad_alias\n', 'An alias referenced an unknown anchor: bad_alias'],
    ['a YAML string', "--- 'invalid: yaml: test'\n", 'Invalid configuration format'],
    ['an undefined on_stop', 'a:\n  script: x\n  environment: { name: prod, on_stop: stop }\n', 'a job: on_stop job stop is not defined'],
    ['an on_stop without action stop', 'a:\n  script: x\n  environment: { name: prod, on_stop: b }\nb:\n  script: x\n  environment: { name: prod }\n', 'a job: on_stop job b needs to have action stop defined'],
    ['an unknown extends', 'a:\n  extends: .x\n  script: y\n', 'a: unknown keys in `extends` (.x)'],
    ['an extends cycle', 'a:\n  extends: b\n  script: y\nb:\n  extends: a\n  script: y\n', 'a: circular dependency detected in `extends`'],
    ['a missing reference', 'a:\n  script: !reference [.x, script]\n', '!reference [".x", "script"] could not be found'],
    ['a remote include', 'include: https://example.com/ci.yml\na:\n  script: x\n', 'Remote file `https://example.com/ci.yml` could not be fetched: remote includes are not emulated'],
    ['a missing local include', 'include: ci/nope.yml\na:\n  script: x\n', 'Local file `ci/nope.yml` does not exist!'],
    ['an include without yaml extension', 'include: ci/nope.txt\na:\n  script: x\n', 'Included file `ci/nope.txt` does not have YAML extension!'],
    ['an include of two accessors', 'include:\n  local: a.yml\n  remote: https://x/b.yml\na:\n  script: x\n', 'Include `{"local":"a.yml","remote":"https://x/b.yml"}` needs to match exactly one accessor!'],
    ['an include twice', 'include: [a.yml, a.yml]\na:\n  script: x\n', 'Include `{"local":"a.yml"}` was already included!'],
    ['a file that is no hash', '- a\n- b\n', 'Invalid configuration format'],
    ['an empty file', '  \n', 'Please provide content of .gitlab-ci.yml'],
  ];
  it.each(table)('%s', (_name, yaml, expected) => {
    expect(errors(yaml, { files: { 'a.yml': 'b:\n  script: y\n' } })).toEqual([expected]);
  });
});

describe('the merged configuration', () => {
  it('merges local includes under the file, resolves extends deeply and !reference, and adds .pre and .post', () => {
    const files = { 'ci/base.yml': '.base:\n  image: node:20\n  variables: { A: "1", B: "2" }\n  before_script: [npm ci]\nlint:\n  script: lint\n' };
    const yaml = [
      'include:', '  - local: /ci/base.yml', 'stages: [build, test]',
      '.mid:', '  extends: .base', '  variables: { B: "3" }',
      'test:', '  extends: .mid', '  script:', '    - !reference [.base, before_script]', '    - npm test',
    ].join('\n');
    const c = compilePipeline(input(yaml, { files }));
    expect(c.errors).toEqual([]);
    const test = c.jobs.find((j) => j.name === 'test')!;
    expect(test.image).toBe('node:20');
    expect(test.variables).toEqual({ A: '1', B: '3' });
    expect(test.script).toEqual(['npm ci', 'npm test']);
    expect(test.beforeScript).toEqual(['npm ci']);
    expect(c.stages).toEqual(['.pre', 'build', 'test', '.post']);
    expect(c.includes.map((i) => [i.type, i.location])).toEqual([['local', '/ci/base.yml']]);
    expect(c.mergedYaml.startsWith('---\n.base:\n')).toBe(true);
    expect(c.mergedYaml).toContain('stages:\n- .pre\n- build\n- test\n- .post\n');
  });

  it('includes a file only where its rules let it: if, exists and changes', () => {
    const files = { 'ci/a.yml': 'a:\n  script: x\n', 'ci/b.yml': 'b:\n  script: x\n', 'ci/c.yml': 'c:\n  script: x\n', 'Dockerfile': '' };
    const yaml = 'include:\n  - local: ci/a.yml\n    rules:\n      - if: $CI_COMMIT_BRANCH == "main"\n  - local: ci/b.yml\n    rules:\n      - exists: [Dockerfile]\n        when: never\n      - when: always\n  - local: ci/c.yml\n    rules:\n      - changes: [src/**/*]\nz:\n  script: x\n';
    expect(names(yaml, { files, changed: ['src/x.ts'] })).toEqual(['a', 'c', 'z']);
    expect(names(yaml, { files, changed: ['README.md'], vars: { ...BRANCH, CI_COMMIT_BRANCH: 'dev' } })).toEqual(['z']);
  });

  it('reads YAML as Ruby does: yes is true, anchors and merge keys, the later duplicate key wins', () => {
    const c = compilePipeline(input('.t: &t\n  script: [a]\n  interruptible: yes\njob:\n  <<: *t\n  stage: build\n  stage: deploy\n'));
    expect(c.errors).toEqual([]);
    expect(c.jobs[0]).toMatchObject({ name: 'job', stage: 'deploy', interruptible: true, script: ['a'] });
  });

  it('reads keys written as Ruby symbols by their names, as Psych does', () => {
    const c = compilePipeline(input('---\n:test_job:\n  :script: echo 1\n'));
    expect([c.errors, c.jobs.map((j) => [j.name, j.script])]).toEqual([[], [['test_job', ['echo 1']]]]);
  });

  it('fills jobs from default and the legacy root keys, unless inherit says no', () => {
    const yaml = 'default:\n  image: ruby:3\n  tags: [docker]\n  retry: 2\nbefore_script: [setup]\na:\n  script: x\nb:\n  script: x\n  inherit:\n    default: false\nc:\n  script: x\n  inherit:\n    default: [tags]\n';
    const c = compilePipeline(input(yaml));
    const [a, b, cc] = ['a', 'b', 'c'].map((n) => c.jobs.find((j) => j.name === n)!);
    expect(a).toMatchObject({ image: 'ruby:3', tags: ['docker'], beforeScript: ['setup'], retry: { max: 2 } });
    expect(b).toMatchObject({ image: null, tags: [], beforeScript: [] });
    expect(cc).toMatchObject({ image: null, tags: ['docker'] });
  });

  it('gives global variables to jobs, their own over them, value and expand forms, inherit:variables', () => {
    const yaml = 'variables:\n  G: g\n  H: { value: h, description: the h }\n  RAW: { value: "$X", expand: false }\na:\n  script: x\n  variables: { G: own }\nb:\n  script: x\n  inherit:\n    variables: [H]\n';
    const c = compilePipeline(input(yaml));
    expect(c.jobs[0]).toMatchObject({ name: 'a', variables: { G: 'own', H: 'h', RAW: '$X' }, rawVariables: ['RAW'] });
    expect(c.jobs[1]!.variables).toEqual({ H: 'h' });
  });
});

describe('spec:inputs', () => {
  const component = 'spec:\n  inputs:\n    stage:\n      default: test\n    env:\n      options: [staging, production]\n---\ndeploy-$[[ inputs.env ]]:\n  stage: $[[ inputs.stage ]]\n  script: deploy $[[ inputs.env | truncate(0,4) ]]\n';
  const files = { 'ci/deploy.yml': component };

  it('interpolates an included file\'s inputs, with defaults and functions', () => {
    const c = compilePipeline(input('include:\n  - local: ci/deploy.yml\n    inputs:\n      env: production\n', { files }));
    expect(c.errors).toEqual([]);
    expect(c.jobs.map((j) => [j.name, j.stage, j.script])).toEqual([['deploy-production', 'test', ['deploy prod']]]);
  });

  it('answers GitLab\'s messages for missing, unknown and refused inputs', () => {
    const run = (inputs: string) => compilePipeline(input(`include:\n  - local: ci/deploy.yml\n    inputs: ${inputs}\n`, { files })).errors;
    expect(run('{}')).toEqual(['`ci/deploy.yml`: `env` input: required value has not been provided']);
    expect(run('{ env: qa }')).toEqual(['`ci/deploy.yml`: `env` input: `qa` cannot be used because it is not in the list of allowed options']);
    expect(run('{ env: production, nope: 1 }')).toEqual(['`ci/deploy.yml`: unknown input arguments: nope']);
    const plain = { 'ci/plain.yml': 'a:\n  script: x\n' };
    expect(compilePipeline(input('include:\n  - local: ci/plain.yml\n    inputs: { a: 1 }\n', { files: plain })).errors)
      .toEqual(['`ci/plain.yml`: Given inputs not defined in the `spec` section of the included configuration file']);
    const bad = { 'ci/bad.yml': 'spec:\n  inputs:\n---\na:\n  script: $[[ inputs.abcd ]]\n' };
    expect(compilePipeline(input('include: ci/bad.yml\n', { files: bad })).errors)
      .toEqual(['`ci/bad.yml`: interpolation interrupted by errors, unknown interpolation key: `abcd`']);
  });

  it('takes the pipeline\'s own inputs for the root file', () => {
    const yaml = 'spec:\n  inputs:\n    mode:\n      type: boolean\n      default: false\n---\na:\n  script: echo $[[ inputs.mode ]]\n';
    expect(compilePipeline({ ...input(yaml), inputs: { mode: true } }).jobs[0]!.script).toEqual(['echo true']);
    expect(compilePipeline(input(yaml)).jobs[0]!.script).toEqual(['echo false']);
    expect(compilePipeline({ ...input(yaml), inputs: { mode: 'yes' } }).errors).toEqual(['`mode` input: provided value is not a boolean']);
  });
});

describe('which jobs a pipeline gets', () => {
  const yaml = [
    'stages: [build, test, deploy]',
    'build:', '  stage: build', '  script: make',
    'unit:', '  script: test', '  rules:', '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"', '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
    'release:', '  stage: deploy', '  script: release', '  only: [tags]',
    'nightly:', '  script: n', '  only:', '    refs: [schedules]',
    'docs:', '  script: d', '  except:', '    refs: [/^v\\d+/]',
    'lint:', '  script: l', '  rules:', '    - changes: ["src/**/*.ts"]',
  ].join('\n');
  const table: [string, Parameters<typeof input>[1], string[]][] = [
    ['a push to the default branch', {}, ['build', 'unit', 'docs', 'lint']],
    ['a tag', { vars: TAG }, ['build', 'lint', 'release']],
    ['a merge request', { vars: MR, source: 'merge_request_event' }, ['unit', 'lint']],
    ['a schedule', { vars: { ...BRANCH, CI_PIPELINE_SOURCE: 'schedule' }, source: 'schedule' }, ['build', 'unit', 'nightly', 'docs', 'lint']],
    ['a push whose changes miss the globs', { changed: ['README.md'] }, ['build', 'unit', 'docs']],
    ['a push whose changes match them', { changed: ['src/a/b.ts'] }, ['build', 'unit', 'docs', 'lint']],
  ];
  it.each(table)('%s', (_name, opts, expected) => {
    expect(names(yaml, opts)).toEqual(expected);
  });

  it('filters the pipeline out by workflow:rules, and names it by workflow:name', () => {
    const yaml = 'workflow:\n  name: "Pipeline for $CI_COMMIT_REF_NAME"\n  rules:\n    - if: $CI_COMMIT_TAG\n      when: never\n    - when: always\na:\n  script: x\n';
    const c = compilePipeline(input(yaml));
    expect([c.created, c.name, c.jobs.length]).toEqual([true, 'Pipeline for main', 1]);
    const t = compilePipeline(input(yaml, { vars: TAG }));
    expect([t.created, t.errors, t.jobs]).toEqual([false, ['Pipeline filtered out by workflow rules.'], []]);
  });

  it('lets the file\'s variables override predefined ones in rules, and the user\'s override the file\'s', () => {
    const yaml = 'variables:\n  CI_COMMIT_BRANCH: from-file\n  DEPLOY: "no"\na:\n  script: x\n  rules:\n    - if: $CI_COMMIT_BRANCH == "from-file" && $DEPLOY == "yes" && $CI_JOB_NAME == "a"\n';
    expect(names(yaml, { vars: { ...BRANCH, DEPLOY: 'yes' } })).toEqual(['a']);
    expect(errors(yaml)).toEqual(['Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.']);
  });

  it('gives workflow:rules variables to every job, over the global ones and under the job\'s own', () => {
    const yaml = 'variables:\n  DEPLOY: "no"\n  TARGET: none\nworkflow:\n  rules:\n    - if: $CI_COMMIT_BRANCH == "main"\n      variables: { DEPLOY: "yes", TARGET: prod }\na:\n  script: x\n  rules:\n    - if: $DEPLOY == "yes"\n      interruptible: true\nb:\n  script: x\n  variables: { TARGET: own }\n';
    const c = compilePipeline(input(yaml));
    expect(c.jobs.map((j) => [j.name, j.variables, j.interruptible])).toEqual([
      ['a', { DEPLOY: 'yes', TARGET: 'prod' }, true],
      ['b', { DEPLOY: 'yes', TARGET: 'own' }, false],
    ]);
  });

  it('says why no pipeline runs when rules keep no job', () => {
    const c = compilePipeline(input('a:\n  script: x\n  rules:\n    - if: $NOPE\n'));
    expect([c.created, c.errors]).toEqual([false, ['Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.']]);
  });

  it('applies the matching rule\'s when, allow_failure, start_in, variables and needs', () => {
    const yaml = [
      'a:', '  stage: build', '  script: x',
      'b:', '  script: x', '  needs: [a]', '  rules:',
      '    - if: $MODE == "manual"', '      when: manual',
      '    - if: $MODE == "late"', '      when: delayed', '      start_in: 30 minutes', '      allow_failure: true', '      variables: { LATE: "yes" }', '      needs: []',
    ].join('\n');
    const manual = compilePipeline(input(yaml, { vars: { ...BRANCH, MODE: 'manual' } })).jobs[1]!;
    expect(manual).toMatchObject({ when: 'manual', allowFailure: false, needs: [{ name: 'a', artifacts: true, optional: false }] });
    const late = compilePipeline(input(yaml, { vars: { ...BRANCH, MODE: 'late' } })).jobs[1]!;
    expect(late).toMatchObject({ when: 'delayed', startInSeconds: 1800, allowFailure: true, needs: [] });
    expect(late.variables.LATE).toBe('yes');
  });

  it('makes a job-level manual job allowed to fail, and reads allow_failure:exit_codes', () => {
    const c = compilePipeline(input('a:\n  script: x\n  when: manual\nb:\n  script: x\n  allow_failure:\n    exit_codes: [2, 3]\n'));
    expect(c.jobs.map((j) => [j.allowFailure, j.allowFailureExitCodes])).toEqual([[true, []], [false, [2, 3]]]);
  });

  it('refuses a need on a job the rules left out, unless the need is optional', () => {
    const yaml = 'a:\n  stage: build\n  script: x\n  rules:\n    - if: $A\nb:\n  script: x\n  needs: [a]\n';
    expect(errors(yaml)).toEqual(["'b' job needs 'a' job, but 'a' is not in any previous stage"]);
    const c = compilePipeline(input(yaml.replace('needs: [a]', 'needs: [{ job: a, optional: true }]')));
    expect([c.errors, c.jobs[0]!.needs]).toEqual([[], []]);
  });

  it('expands parallel and parallel:matrix into GitLab\'s job names, and needs on them', () => {
    const yaml = 'a:\n  stage: build\n  script: x\n  parallel: 3\nm:\n  stage: build\n  script: x\n  parallel:\n    matrix:\n      - OS: [linux, mac]\n        ARCH: amd64\n      - OS: win\nz:\n  script: x\n  needs: [a]\n';
    const c = compilePipeline(input(yaml));
    expect(c.jobs.map((j) => j.name)).toEqual(['a 1/3', 'a 2/3', 'a 3/3', 'm: [linux, amd64]', 'm: [mac, amd64]', 'm: [win]', 'z']);
    expect(c.jobs[4]!.variables).toMatchObject({ OS: 'mac', ARCH: 'amd64' });
    expect(c.jobs[6]!.needs!.map((n) => n.name)).toEqual(['a 1/3', 'a 2/3', 'a 3/3']);
  });

  it('reads environment, artifacts, retry, timeout, trigger, resource_group and coverage', () => {
    const yaml = [
      'deploy:', '  script: x', '  environment:', '    name: review/$CI_COMMIT_REF_NAME', '    url: https://$CI_COMMIT_REF_NAME.example.com', '    on_stop: stop', '    auto_stop_in: 1 day',
      '  artifacts: { paths: [dist], expire_in: 1 week, reports: { junit: r.xml } }', '  retry: { max: 2, when: [script_failure] }', '  timeout: 1h 30m',
      '  resource_group: prod', "  coverage: '/Total: (\\d+)%/'",
      'stop:', '  script: x', '  when: manual', '  environment: { name: review/$CI_COMMIT_REF_NAME, action: stop }',
      'child:', '  trigger:', '    include: child.yml', '    strategy: depend',
    ].join('\n');
    const c = compilePipeline(input(yaml));
    expect(c.errors).toEqual([]);
    const [deploy, stop, child] = c.jobs;
    expect(deploy).toMatchObject({
      environment: { name: 'review/main', url: 'https://main.example.com', action: 'start', onStop: 'stop', autoStopIn: '1 day' },
      artifacts: { paths: ['dist'], expireIn: '1 week', reports: ['junit'], when: 'on_success' },
      retry: { max: 2, when: ['script_failure'] }, timeoutSeconds: 5400, resourceGroup: 'prod', coverage: '/Total: (\\d+)%/',
    });
    expect(stop!.environment!.action).toBe('stop');
    expect(child!.trigger).toEqual({ include: ['child.yml'], project: null, branch: null, strategy: 'depend' });
    const cached = compilePipeline(input('default:\n  cache: { key: $CI_COMMIT_REF_SLUG, paths: [node_modules/] }\na:\n  script: x\nb:\n  script: x\n  cache: [{ key: { files: [package-lock.json] }, policy: pull }]\n')).jobs;
    expect(cached.map((j) => j.cache)).toEqual([
      [{ key: '$CI_COMMIT_REF_SLUG', paths: ['node_modules/'], untracked: false, policy: 'pull-push', when: 'on_success', fallbackKeys: [] }],
      [{ key: { files: ['package-lock.json'], prefix: null }, paths: [], untracked: false, policy: 'pull', when: 'on_success', fallbackKeys: [] }],
    ]);
  });
});

describe('names that are also object properties', () => {
  it('keeps __proto__ and constructor as ordinary job and variable names', () => {
    const yaml = 'variables:\n  __proto__: g\n  constructor: c\n__proto__:\n  script: x\n  variables: { toString: t }\n  rules:\n    - variables: { __proto__: r }\nconstructor:\n  script: y\n  parallel:\n    matrix:\n      - __proto__: [a, b]\n';
    const c = compilePipeline(input(yaml));
    expect(c.errors).toEqual([]);
    expect(c.jobs.map((j) => [j.name, Object.entries(j.variables)])).toEqual([
      ['__proto__', [['__proto__', 'r'], ['constructor', 'c'], ['toString', 't']]],
      ['constructor: [a]', [['__proto__', 'a'], ['constructor', 'c']]],
      ['constructor: [b]', [['__proto__', 'b'], ['constructor', 'c']]],
    ]);
    expect(({} as Record<string, unknown>).g).toBeUndefined();
  });

  it('refuses a file nested too deep, and aliases that multiply', () => {
    expect(errors(`a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)).toEqual(['The parsed YAML is too big']);
    expect(errors('a: &a [1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\nj:\n  script: x\n'))
      .toEqual(['(<unknown>): Excessive alias count indicates a resource exhaustion attack']);
  });

  it('refuses a file over GitLab\'s size limit', () => {
    expect(errors(`a:\n  script: x\n# ${'x'.repeat(1024 * 1024)}\n`)).toEqual(['The parsed YAML is too big']);
  });
});

describe('lint\'s static jobs', () => {
  it('lists every job by stage, with only and except as GitLab shows them', () => {
    const r = lintConfig(input('stages: [build, test]\nt:\n  script: x\n  rules:\n    - when: always\nb:\n  stage: build\n  script: y\n  except: [tags]\n'));
    expect(r.jobs).toEqual([
      { name: 'b', stage: 'build', before_script: [], script: ['y'], after_script: [], tag_list: [], only: { refs: ['branches', 'tags'] }, except: { refs: ['tags'] }, environment: null, when: 'on_success', allow_failure: false, needs: null },
      { name: 't', stage: 'test', before_script: [], script: ['x'], after_script: [], tag_list: [], only: null, except: null, environment: null, when: 'on_success', allow_failure: false, needs: null },
    ]);
  });
});
