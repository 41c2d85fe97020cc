// The default world has something to look at: acme/website carries GitLab's default label set
// (Gitlab::IssuesLabels: names and colours), an open issue and an open merge request from a
// branch with a commit; a first `/label ~bug` works. The inspector's world view names the
// default branch as the REST entity does.
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';

const ROOT = { 'PRIVATE-TOKEN': 'glpat-emulator-root-token' };
const api = (e: Awaited<ReturnType<typeof createEmulator>>, path: string, init: RequestInit = {}) =>
  e.handle(new Request(`http://gitlab.test/api/v4${path}`, { ...init, headers: { ...ROOT, 'Content-Type': 'application/json', ...(init.headers ?? {}) } }));

describe('the default world', () => {
  it("gives acme/website GitLab's default labels, with GitLab's colours", async () => {
    const e = await createEmulator();
    const labels = (await (await api(e, '/projects/acme%2Fwebsite/labels?per_page=100')).json()) as { name: string; color: string; description: string | null }[];
    expect(Object.fromEntries(labels.map((l) => [l.name, l.color]))).toEqual({
      bug: '#d9534f',
      confirmed: '#d9534f',
      critical: '#d9534f',
      discussion: '#428bca',
      documentation: '#f0ad4e',
      enhancement: '#5cb85c',
      suggestion: '#428bca',
      support: '#f0ad4e',
    });
    expect(labels.map((l) => l.name)).toEqual([...labels.map((l) => l.name)].sort());
  });

  it('has an open issue and an open merge request from a branch with its own commit', async () => {
    const e = await createEmulator();
    const issues = (await (await api(e, '/projects/acme%2Fwebsite/issues?state=opened')).json()) as { iid: number; state: string; author: { username: string } }[];
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ iid: 1, state: 'opened', author: { username: 'alice' } });
    const mrs = (await (await api(e, '/projects/acme%2Fwebsite/merge_requests?state=opened')).json()) as { iid: number; source_branch: string; target_branch: string }[];
    expect(mrs).toHaveLength(1);
    expect(mrs[0]).toMatchObject({ iid: 1, source_branch: 'update-readme', target_branch: 'main' });
    const commits = (await (await api(e, '/projects/acme%2Fwebsite/merge_requests/1/commits')).json()) as { title: string }[];
    expect(commits.map((c) => c.title)).toEqual(['Say how to run the website locally']);
    const changes = (await (await api(e, '/projects/acme%2Fwebsite/merge_requests/1/diffs')).json()) as { new_path: string }[];
    expect(changes.map((c) => c.new_path)).toEqual(['README.md']);
  });

  it('a first /label ~bug in a comment labels the issue', async () => {
    const e = await createEmulator();
    const note = await api(e, '/projects/acme%2Fwebsite/issues/1/notes', { method: 'POST', body: JSON.stringify({ body: '/label ~bug' }) });
    expect(note.status).toBeLessThan(300);
    const issue = (await (await api(e, '/projects/acme%2Fwebsite/issues/1')).json()) as { labels: string[] };
    expect(issue.labels.sort()).toEqual(['bug', 'documentation']);
  });

  it("the inspector's world view names each project's default branch as the REST entity does", async () => {
    const e = await createEmulator();
    const world = (await (await e.handle(new Request('http://gitlab.test/-/emulator/world'))).json()) as { projects: { path_with_namespace: string; default_branch: string }[] };
    for (const p of world.projects) {
      const rest = (await (await api(e, `/projects/${encodeURIComponent(p.path_with_namespace)}`)).json()) as { default_branch: string };
      expect([p.path_with_namespace, p.default_branch]).toEqual([p.path_with_namespace, rest.default_branch]);
    }
    expect(world.projects.map((p) => p.default_branch)).toEqual(['main', 'main']);
  });
});
