// python-gitlab, a real client in another language, against the server: the everyday calls of
// the families (test/python/everyday.py). Needs Debian's python3-gitlab (`.ci/run` installs it);
// skipped, saying so, where it is missing.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';

const PYTHON = '/usr/bin/python3';
const HAS_PYTHON_GITLAB = spawnSync(PYTHON, ['-c', 'import gitlab'], { stdio: 'ignore' }).status === 0;
if (!HAS_PYTHON_GITLAB) console.warn('python-gitlab tests skipped: /usr/bin/python3 cannot import gitlab (apt-get install python3-gitlab)');

describe.skipIf(!HAS_PYTHON_GITLAB)('python-gitlab against the server', () => {
  let emulator: Emulator;
  let server: Server;

  beforeAll(async () => {
    emulator = await createEmulator({ clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    // A finished build on main with artifacts, as a runner would leave it.
    const ci = emulator.ci('acme/website');
    const pipeline = ci.pipeline({ ref: 'main', user: 'root' });
    const job = ci.job(pipeline.id, { name: 'build', stage: 'build' });
    ci.finish(job.id, { status: 'success', artifacts: { files: { 'report.txt': 'ok\n' } } });
    server = await emulator.listen({ port: 0 });
  });
  afterAll(() => server?.close());

  it('runs the everyday calls of each family, as a Python script would', async () => {
    // Asynchronously: the server answers from this process meanwhile.
    const run = await promisify(execFile)(PYTHON, [join(import.meta.dirname, 'python', 'everyday.py'), server.url], { encoding: 'utf8', timeout: 60_000 }).catch(
      (e: { stdout?: string; stderr?: string }) => {
        throw new Error(`python-gitlab failed:\n${e.stderr ?? e}`);
      },
    );
    const seen = JSON.parse(run.stdout);
    expect(seen).toMatchObject({
      commit_title: 'Add the docs',
      tree: ['docs/install.md', 'docs/usage.md'],
      compare_commits: ['Add the docs'],
      users: ['alice'],
      bob_token_works: 'website',
      pat_names: ['scripts'],
      members_all: expect.arrayContaining(['alice', 'bob']),
      variables: [['DEPLOY_KEY', true]],
      artifacts_zip: true,
      issues: ['Crash on start'],
      time_estimate: '1h 30m',
      subscribed: true,
      todos: ['Crash on start'],
      issue_notes: ['Seen it, too'],
      reopened_by_note: 'opened',
      group_wiki_slugs: ['Runbook/On-call'],
      group_wiki_content: '# On call\nPage the owner.\n',
      commands_only: [{ time_estimate: 3600 }, ['Set time estimate to 1h.']],
      thread_notes: ['A thread', 'A reply'],
      commit_comments: ['Nice commit'],
      project_snippet_content: 'echo two\n',
      project_snippet_first_version: 'echo one\n',
      snippet_file_name: 'renamed.md',
      snippet_content: '# Notes\n',
      public_snippets: ['Notes'],
      snippet_user_agent: ['akismet_submitted', 'ip_address', 'user_agent'],
      state_events: ['closed'],
      label_events: [['add', 'bug']],
      diff_note: ['DiffNote', 2],
      mr_awards: [['thumbsup'], ['tada']],
      mr_subscribed: false,
      // Closing the issue finished its closer's to-do on it (TodoService#close_issue).
      mr_todo_types: ['MergeRequest'],
      mr_participants: ['root'],
      mr_deleted: [],
      move_state: 'scheduled',
      write_during_move: 'The repository is temporarily read-only. Please try again later.',
    });
    expect(seen.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
