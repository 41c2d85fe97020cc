// A review bot under test: it reads a merge request's diff, comments on each added line that
// says TODO (a thread on that line of the diff, as GitLab's review comments are), and reacts with
// a thumbs-up when there is nothing to say. The emulator answers its `fetch` calls through MSW.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator } from 'gitlab-emulator';
import { handlers } from 'gitlab-emulator/msw';

const API = 'https://gitlab.example.com/api/v4';
const TOKEN = 'glpat-review-bot';
const headers = { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' };

async function gitlab<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${API}${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  if (!res.ok) throw new Error(`GitLab said ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

interface Position { new_path: string; new_line: number | null }

/** The added lines of a unified diff that say TODO, with their line numbers in the new file. */
function todoLines(diff: string): number[] {
  const found: number[] = [];
  let line = 0;
  for (const text of diff.split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(text);
    if (hunk) line = Number(hunk[1]);
    else if (text.startsWith('+')) {
      if (text.includes('TODO')) found.push(line);
      line++;
    } else if (text.startsWith(' ')) line++;
  }
  return found;
}

// The code under test.
async function review(project: string, iid: number): Promise<number> {
  const base = `/projects/${encodeURIComponent(project)}/merge_requests/${iid}`;
  const mr = await gitlab<{ diff_refs: { base_sha: string; start_sha: string; head_sha: string } }>(base);
  const diffs = await gitlab<{ old_path: string; new_path: string; diff: string }[]>(`${base}/diffs`);
  const threads = await gitlab<{ notes: { position?: Position }[] }[]>(`${base}/discussions`);
  const said = new Set(threads.map((t) => t.notes[0]?.position).filter((p): p is Position => !!p).map((p) => `${p.new_path}:${p.new_line}`));
  let comments = 0;
  for (const d of diffs) {
    for (const line of todoLines(d.diff)) {
      if (said.has(`${d.new_path}:${line}`)) continue;
      const position = { ...mr.diff_refs, position_type: 'text', old_path: d.old_path, new_path: d.new_path, new_line: line };
      await gitlab(`${base}/discussions`, { method: 'POST', body: { body: 'A TODO left in: open an issue for it?', position } });
      comments++;
    }
  }
  if (comments === 0 && said.size === 0) await gitlab(`${base}/award_emoji`, { method: 'POST', body: { name: 'thumbsup' } });
  return comments;
}

const emulator = await createEmulator({
  fixture: {
    users: [{ username: 'dev', tokens: [{ token: 'glpat-dev' }] }, { username: 'review-bot', tokens: [{ token: TOKEN }] }],
    groups: [{ path: 'acme', members: [{ user: 'dev', access_level: 'developer' }, { user: 'review-bot', access_level: 'reporter' }] }],
    projects: [{
      namespace: 'acme', path: 'app',
      repository: {
        files: { 'src/app.ts': 'export const a = 1;\n' },
        commits: [
          { branch: 'feature', message: 'Add b', files: { 'src/app.ts': 'export const a = 1;\n// TODO: handle errors\nexport const b = 2;\n' } },
          { branch: 'clean', message: 'Add c', files: { 'src/c.ts': 'export const c = 3;\n' } },
        ],
      },
      merge_requests: [
        { title: 'Add b', source_branch: 'feature', author: 'dev' },
        { title: 'Add c', source_branch: 'clean', author: 'dev' },
      ],
    }],
  },
});
const server = setupServer(...handlers(emulator));
const seeded = emulator.snapshot();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => emulator.restore(seeded));
afterAll(() => server.close());

describe('the review bot', () => {
  it('comments on the line that says TODO, once however often it runs', async () => {
    expect(await review('acme/app', 1)).toBe(1);
    expect(await review('acme/app', 1)).toBe(0);
    const threads = await gitlab<{ notes: { type: string; body: string; author: { username: string }; position: Position }[] }[]>('/projects/acme%2Fapp/merge_requests/1/discussions');
    expect(threads).toHaveLength(1);
    expect(threads[0]!.notes[0]).toMatchObject({ type: 'DiffNote', author: { username: 'review-bot' }, position: { new_path: 'src/app.ts', new_line: 2 } });
  });

  it('reacts with a thumbs-up when there is nothing to say', async () => {
    expect(await review('acme/app', 2)).toBe(0);
    const awards = await gitlab<{ name: string }[]>('/projects/acme%2Fapp/merge_requests/2/award_emoji');
    expect(awards.map((a) => a.name)).toEqual(['thumbsup']);
  });
});
