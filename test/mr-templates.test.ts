// The merge and squash commit messages of a merge (Gitlab::MergeRequests::MessageGenerator,
// MergeRequest#default_merge_commit_message and #default_squash_commit_message): the project's
// templates with their placeholders, the caller's messages over them, GitLab's defaults without
// them; and the issues a merged request closes, kept as they were at the merge.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { PLACEHOLDER_NAMES, replacePlaceholders } from '../src/families/merge-requests/message-generator.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, teamProject, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      repository: {
        files: { 'README.md': '# app\n' },
        commits: [
          { branch: 'feature', message: 'First line only', files: { 'a.txt': 'a\n' }, author: 'dev' },
          { branch: 'feature', message: 'Second commit\n\nWith a body\n', files: { 'b.txt': 'b\n' }, author: 'mai' },
          { branch: 'feature', message: 'Third', files: { 'c.txt': 'c\n' }, author: 'dev' },
          { branch: 'plain', message: 'Plain change', files: { 'p.txt': 'p\n' }, author: 'dev' },
        ],
      },
      issues: [{ title: 'Bug', author: 'dev' }, { title: 'Other', author: 'dev' }, { title: 'Later', author: 'dev' }],
      merge_requests: [
        { title: 'Add things', source_branch: 'feature', author: 'dev', description: 'Closes #1 and #2' },
        { title: 'Plain', source_branch: 'plain', author: 'dev' },
      ],
    }),
    { namespace: 'acme', path: 'lib', visibility: 'public', creator: 'root', members: TEAM_MEMBERS, issues: [{ title: 'Lib bug', author: 'dev' }] },
  ],
};
const P = '/projects/acme%2Fapp';
const MR1 = `${P}/merge_requests/1`;
const MR2 = `${P}/merge_requests/2`;

const EVERY = [
  'source_branch:%{source_branch}', 'target_branch:%{target_branch}', 'title:%{title}', 'issues:%{issues}', 'description:%{description}',
  'reference:%{reference}', 'local_reference:%{local_reference}', 'source_project_id:%{source_project_id}', 'first_commit:%{first_commit}',
  'first_multiline_commit:%{first_multiline_commit}', 'url:%{url}', 'reviewed_by:%{reviewed_by}', 'approved_by:%{approved_by}',
  'merged_by:%{merged_by}', 'co_authored_by:%{co_authored_by}', 'all_commits:%{all_commits}', 'unknown:%{unknown}',
].join('\n');

describe('merge and squash commit messages', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token = 'maintainer-token', json?: unknown) => jsonCall(world(), path, { method, token, json });
  const setTemplates = async (fields: Record<string, unknown>) => expect((await call('PUT', P, 'maintainer-token', fields)).status).toBe(200);
  const message = async (sha: string) => (await call('GET', `${P}/repository/commits/${sha}`)).body.message as string;
  const merge = async (mr: string, params: Record<string, unknown> = {}, token = 'maintainer-token') => {
    const merged = await call('PUT', `${mr}/merge`, token, params);
    expect(merged.status).toBe(200);
    return merged.body as { merge_commit_sha: string; squash_commit_sha: string | null; project_id: number };
  };

  it('refuses a template over 500 characters (an issue branch template over 255) and changes nothing', async () => {
    const refused = await call('PUT', P, 'maintainer-token', { merge_commit_template: 'x'.repeat(501), squash_commit_template: 'ok', issue_branch_template: 'b'.repeat(256) });
    expect(refused).toEqual({ status: 400, body: { message: {
      'project_setting.merge_commit_template': ['is too long (maximum is 500 characters)'],
      'project_setting.issue_branch_template': ['is too long (maximum is 255 characters)'],
    } } });
    expect((await call('GET', P)).body).toMatchObject({ merge_commit_template: null, squash_commit_template: null, issue_branch_template: null });
    await setTemplates({ merge_commit_template: 'x'.repeat(500) });
  });

  it('a merge commit template with every placeholder', async () => {
    await call('PUT', MR1, 'dev-token', { description: 'Closes #1 and #2, fixes acme/lib#1' });
    await setTemplates({ merge_commit_template: EVERY });
    expect((await call('POST', `${MR1}/approve`)).status).toBe(201);
    const merged = await merge(MR1);
    expect(await message(merged.merge_commit_sha)).toBe([
      'source_branch:feature', 'target_branch:main', 'title:Add things', 'issues:Closes #1, #2, and lib#1',
      'description:Closes #1 and #2, fixes acme/lib#1', 'reference:acme/app!1', 'local_reference:!1', `source_project_id:${merged.project_id}`,
      'first_commit:First line only', 'first_multiline_commit:Second commit', '', 'With a body',
      'url:https://gitlab.example.com/acme/app/-/merge_requests/1', 'reviewed_by:', 'approved_by:Approved-by: Mai Ntainer <mai@example.com>',
      'merged_by:Mai Ntainer <mai@example.com>', 'co_authored_by:Co-authored-by: Dee Veloper <dev@example.com>',
      'all_commits:* Third', '', '* Second commit', '', 'With a body', '', '* First line only', 'unknown:%{unknown}',
    ].join('\n'));
  });

  it('a line of only an empty placeholder goes, with the blank line before it when a blank line or the end follows; CRLF becomes LF', async () => {
    await setTemplates({ merge_commit_template: "Merge branch '%{source_branch}' into '%{target_branch}'\r\n\r\n%{issues}\r\n\r\n%{reviewed_by}\r\n%{title}\r\n\r\n%{description} %{title}\r\n\r\n%{description}" });
    const merged = await merge(MR2);
    expect(await message(merged.merge_commit_sha)).toBe("Merge branch 'plain' into 'main'\n\nPlain\n\n Plain");
  });

  it('commits with a long title count as multi-line; one over 100 KiB shows only its cut title in %{all_commits}', async () => {
    const long = `${'word '.repeat(21)}end`;
    const huge = `${'a'.repeat(50)} ${'b'.repeat(60)}\n\n${'x'.repeat(101 * 1024)}`;
    for (const [i, commit_message] of [long, huge].entries()) {
      const made = await call('POST', `${P}/repository/commits`, 'dev-token', { branch: 'plain', commit_message, actions: [{ action: 'create', file_path: `n${i}.txt`, content: 'n\n' }] });
      expect(made.status).toBe(201);
    }
    await setTemplates({ merge_commit_template: '%{first_multiline_commit}\n---\n%{all_commits}' });
    const merged = await merge(MR2);
    expect(await message(merged.merge_commit_sha)).toBe(`${long}\n---\n* ${'a'.repeat(50)}…\n\n-- Skipped commit body exceeding 100KiB in size.\n\n* ${long}\n\n* Plain change`);
  });

  it('the merge ref is made with the template too, for the author', async () => {
    await setTemplates({ merge_commit_template: '%{title} by %{merged_by}\n\n%{approved_by}' });
    const ref = (await call('GET', `${MR1}/merge_ref`, 'dev-token')).body.commit_id;
    expect(await message(ref)).toBe('Add things by Dee Veloper <dev@example.com>');
  });

  it('a squash template makes the squash commit; the merge commit keeps its default', async () => {
    await setTemplates({ squash_commit_template: '%{title}\n\n%{co_authored_by}\n\n%{local_reference}' });
    const merged = await merge(MR1, { squash: true });
    expect(merged.squash_commit_sha).not.toBeNull();
    // The author's own commits are no co-author of the squash (the merging user's are, for a merge commit).
    expect(await message(merged.squash_commit_sha!)).toBe('Add things\n\nCo-authored-by: Mai Ntainer <mai@example.com>\n\n!1\n');
    expect(await message(merged.merge_commit_sha)).toBe("Merge branch 'feature' into 'main'\n\nAdd things\n\nCloses #1 and #2\n\nSee merge request acme/app!1");
    const squash = (await call('GET', `${P}/repository/commits/${merged.squash_commit_sha}`)).body;
    expect(squash).toMatchObject({ author_name: 'Dee Veloper', committer_name: 'Mai Ntainer' });
  });

  it('merge_commit_message and squash_commit_message win over the templates; a blank squash message is none', async () => {
    await setTemplates({ merge_commit_template: 'template %{title}', squash_commit_template: 'squash template %{title}' });
    const merged = await merge(MR1, { squash: true, merge_commit_message: 'Mine', squash_commit_message: 'My squash' });
    expect(await message(merged.merge_commit_sha)).toBe('Mine');
    expect(await message(merged.squash_commit_sha!)).toBe('My squash\n');
    const other = await merge(MR2, { squash: true, squash_commit_message: '  ' });
    // One commit and no message of the caller's: nothing to squash; the template makes the merge commit.
    expect(other.squash_commit_sha).toBe((await call('GET', `${P}/repository/commits/${other.merge_commit_sha}`)).body.parent_ids[1]);
    expect(await message(other.merge_commit_sha)).toBe('template Plain');
  });

  it('a template that renders blank squashes with the title; a blank template is no template', async () => {
    await setTemplates({ merge_commit_template: ' \n ', squash_commit_template: '%{reviewed_by}' });
    const merged = await merge(MR1, { squash: true });
    expect(await message(merged.squash_commit_sha!)).toBe('Add things\n');
    expect(await message(merged.merge_commit_sha)).toBe("Merge branch 'feature' into 'main'\n\nAdd things\n\nCloses #1 and #2\n\nSee merge request acme/app!1");
  });

  it('a merge by the /merge quick action uses the template', async () => {
    await setTemplates({ merge_commit_template: '%{title} (%{local_reference}) merged by %{merged_by}' });
    const head = (await call('GET', MR2)).body.sha;
    expect((await call('POST', `${MR2}/notes`, 'maintainer-token', { body: '/merge', merge_request_diff_head_sha: head })).status).toBeLessThan(300);
    const mr = (await call('GET', MR2)).body;
    expect(mr.state).toBe('merged');
    expect(await message(mr.merge_commit_sha)).toBe('Plain (!2) merged by Mai Ntainer <mai@example.com>');
  });

  it('an automatic merge when the pipeline succeeds uses the templates, for the user who set it', async () => {
    await setTemplates({ merge_commit_template: '%{title}\n\nMerged by %{merged_by}\n\n%{issues}', squash_commit_template: '%{first_multiline_commit}' });
    const ci = world().ci('acme/app');
    const job = ci.job(ci.pipeline({ ref: 'feature' }).id, { name: 'test', status: 'running' }).id;
    expect((await call('PUT', `${MR1}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true, squash: true })).body.merge_when_pipeline_succeeds).toBe(true);
    ci.finish(job, { status: 'success' });
    await world().settled();
    const mr = (await call('GET', MR1)).body;
    expect(mr.state).toBe('merged');
    expect(await message(mr.merge_commit_sha)).toBe('Add things\n\nMerged by Mai Ntainer <mai@example.com>\n\nCloses #1 and #2');
    expect(await message(mr.squash_commit_sha)).toBe('Second commit\n\nWith a body\n');
  });

  it('closes_issues of a merged request stays what it was at the merge', async () => {
    const iids = async (mr: string) => (await call('GET', `${mr}/closes_issues`)).body.map((i: { iid: number }) => i.iid);
    // Open, it follows the description.
    await call('PUT', MR1, 'dev-token', { description: 'Closes #1' });
    expect(await iids(MR1)).toEqual([1]);
    await call('PUT', MR1, 'dev-token', { description: 'Closes #1 and #2' });
    expect(await iids(MR1)).toEqual([1, 2]);
    await merge(MR1);
    expect((await call('GET', `${P}/issues/1`)).body.state).toBe('closed');
    await call('PUT', MR1, 'dev-token', { description: 'Closes #3' });
    expect((await call('GET', MR1)).body.description).toBe('Closes #3');
    expect(await iids(MR1)).toEqual([1, 2]);
    expect((await call('GET', `${P}/issues/3/closed_by`)).body).toEqual([]);
    expect((await call('GET', `${P}/issues/2/closed_by`)).body.map((m: { iid: number }) => m.iid)).toEqual([1]);
    expect((await call('GET', `${P}/issues/3`)).body.state).toBe('opened');
  });

  it('an issue whose project does not close referenced issues is not one a merge closes', async () => {
    await setTemplates({ autoclose_referenced_issues: false });
    expect((await call('GET', `${MR1}/closes_issues`)).body).toEqual([]);
    const merged = await merge(MR1);
    expect(await message(merged.merge_commit_sha)).toBe("Merge branch 'feature' into 'main'\n\nAdd things\n\nSee merge request acme/app!1");
    expect((await call('GET', `${P}/issues/1`)).body.state).toBe('opened');
  });
});

/**
 * replace_placeholders as its three substitutions do it, one character at a time: a blank
 * placeholder between a blank line and a blank line or the end goes with the blank line before
 * it; then one alone on its line goes with its line; then every placeholder is its value.
 */
function model(template: string, values: Record<string, string | null>): string {
  let s = template.split('\r').join('');
  const tokens = PLACEHOLDER_NAMES.map((n) => `%{${n}}`);
  const used = tokens.filter((t) => s.includes(t));
  const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';
  const empty = used.filter((t) => blank(values[t.slice(2, -1)]));
  let out = '';
  for (let i = 0; i < s.length;) {
    const t = s.startsWith('\n\n', i) ? empty.find((e) => s.startsWith(e, i + 2)) : undefined;
    if (t !== undefined) {
      const after = i + 2 + t.length;
      if (s.startsWith('\n\n', after)) {
        out += '\n\n';
        i = after + 2;
        continue;
      }
      if (after === s.length || (after === s.length - 1 && s[after] === '\n')) {
        i = after;
        continue;
      }
    }
    out += s[i];
    i++;
  }
  s = out;
  out = '';
  for (let i = 0; i < s.length;) {
    const t = i === 0 || s[i - 1] === '\n' ? empty.find((e) => s.startsWith(`${e}\n`, i)) : undefined;
    if (t !== undefined) {
      i += t.length + 1;
      continue;
    }
    out += s[i];
    i++;
  }
  s = out;
  out = '';
  for (let i = 0; i < s.length;) {
    const t = used.find((e) => s.startsWith(e, i));
    if (t !== undefined) {
      out += values[t.slice(2, -1)] ?? '';
      i += t.length;
      continue;
    }
    out += s[i];
    i++;
  }
  return out;
}

describe('replace_placeholders', () => {
  const piece = fc.constantFrom('\n', '\n\n', '\r\n', ' ', 'x', '%{title}', '%{issues}', '%{description}', '%{unknown}', '%{', '}');
  const value = fc.constantFrom(null, '', ' ', '\n', 'T', 'two\nlines', '%{title}', '$1 $&');
  it('does what its substitutions do, for any template and values', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 24 }), value, value, value, (parts, title, issues, description) => {
      const template = parts.join('');
      const values = { title, issues, description };
      expect(replacePlaceholders(template, values)).toBe(model(template, values));
    }), { numRuns: 2000 });
  });

  it('GitLab’s own examples', () => {
    const t = "Merge branch '%{source_branch}' into '%{target_branch}'\n\n%{reviewed_by}\n\nType: merge";
    const v = { source_branch: 'feature', target_branch: 'master', reviewed_by: '' };
    expect(replacePlaceholders(t, v)).toBe("Merge branch 'feature' into 'master'\n\nType: merge");
    expect(replacePlaceholders(t.replace('\n\nType', '\nType'), v)).toBe("Merge branch 'feature' into 'master'\n\nType: merge");
    expect(replacePlaceholders("%{title}\n\n%{reviewed_by}", { title: 'Bugfix', reviewed_by: null })).toBe('Bugfix');
    expect(replacePlaceholders('%{title} %{title}', { title: 'Bugfix' })).toBe('Bugfix Bugfix');
    expect(replacePlaceholders('static text', {})).toBe('static text');
    expect(replacePlaceholders('a\n\n%{description}\n\nb', { description: '\n\r  \n' })).toBe('a\n\nb');
  });
});
