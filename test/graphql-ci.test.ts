// GraphQL's pipelines, jobs and releases of a project, compared with REST for the same world.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, ORIGIN, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, tags: { 'v1.0': 'main', 'v2.0': 'main' } },
    pipelines: [
      { ref: 'main', user: 'dev', jobs: [{ name: 'build', status: 'success' }, { name: 'test', status: 'failed' }] },
      { ref: 'main', user: 'mai', jobs: [{ name: 'build', status: 'running' }] },
    ],
    snippets: [{ title: 'Setup', visibility: 'private', author: 'dev', files: [{ path: 'setup.sh', content: 'echo setup\n' }] }, { title: 'Public one', visibility: 'public', author: 'mai', files: [{ path: 'a.txt', content: 'a' }] }],
    wiki: [{ title: 'Getting started', content: '# Hello\n' }],
    releases: [{ tag_name: 'v1.0', name: 'One', released_at: '2024-01-01T00:00:00Z' }, { tag_name: 'v2.0', name: 'Two', released_at: '2024-02-01T00:00:00Z' }],
  }],
};
const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');

async function data(query: string, token?: string, variables?: Record<string, unknown>): Promise<any> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers['PRIVATE-TOKEN'] = token;
  const body = (await (await world().handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) }))).json()) as any;
  expect(body.errors).toBeUndefined();
  return body.data;
}
const rest = async (path: string, token = 'dev-token'): Promise<any> => (await apiCall(world(), path, { token })).json();

describe('pipelines and jobs', () => {
  it('lists pipelines and their jobs as REST does', async () => {
    const d = await data('{ project(fullPath: "acme/app") { pipelines { count nodes { id iid ref sha status user { username } jobs { nodes { id name status stageName } } } } } }', 'dev-token');
    const r = (await rest('/projects/acme%2Fapp/pipelines')) as any[];
    expect(d.project.pipelines.nodes.map((p: any) => [p.id, p.iid, p.ref, p.sha, p.status])).toEqual(r.map((p) => [`gid://gitlab/Ci::Pipeline/${p.id}`, String(p.iid), p.ref, p.sha, p.status.toUpperCase()]));
    for (const p of d.project.pipelines.nodes) {
      const jobs = (await rest(`/projects/acme%2Fapp/pipelines/${p.id.split('/').pop()}/jobs`)) as any[];
      expect(p.jobs.nodes.map((j: any) => [j.id, j.name, j.status, j.stageName]).sort()).toEqual(jobs.map((j) => [`gid://gitlab/Ci::Build/${j.id}`, j.name, j.status.toUpperCase(), j.stage]).sort());
    }
    const failed = await data('{ project(fullPath: "acme/app") { jobs(statuses: [FAILED]) { nodes { name pipeline { iid } } } } }', 'dev-token');
    expect(failed.project.jobs.nodes).toEqual([{ name: 'test', pipeline: { iid: '1' } }]);
    const one = await data('{ project(fullPath: "acme/app") { pipeline(iid: "2") { status user { username } } } }', 'dev-token');
    expect(one.project.pipeline).toEqual({ status: 'RUNNING', user: { username: 'mai' } });
    expect((await apiCall(world(), '/projects/acme%2Fapp/pipelines', { token: 'outsider-token' })).status).toBe(404);
    expect(await data('{ project(fullPath: "acme/app") { pipelines { nodes { id } } } }', 'outsider-token')).toEqual({ project: null });
    const guest = await data('{ project(fullPath: "acme/app") { pipelines { count } } }', 'guest-token');
    expect(guest.project.pipelines.count).toBe(((await rest('/projects/acme%2Fapp/pipelines', 'guest-token')) as any[]).length);
  });
});

describe('releases', () => {
  it('lists releases in REST order, and finds one by tag', async () => {
    const d = await data('{ project(fullPath: "acme/app") { releases { nodes { tagName name releasedAt upcomingRelease } } release(tagName: "v1.0") { name } } }', 'reporter-token');
    const r = (await rest('/projects/acme%2Fapp/releases', 'reporter-token')) as any[];
    expect(d.project.releases.nodes.map((x: any) => x.tagName)).toEqual(r.map((x) => x.tag_name));
    expect(d.project.releases.nodes[0]).toEqual({ tagName: 'v2.0', name: 'Two', releasedAt: '2024-02-01T00:00:00Z', upcomingRelease: false });
    expect(d.project.release).toEqual({ name: 'One' });
  });
});

describe('pipelineRetry and pipelineCancel', () => {
  it('retries the failed jobs and cancels the running ones, as REST then sees them', async () => {
    const pipelines = (await rest('/projects/acme%2Fapp/pipelines')) as any[];
    const first = pipelines.find((p) => p.iid === 1);
    const second = pipelines.find((p) => p.iid === 2);
    const headers = { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': 'dev-token' };
    const call = async (query: string, token = 'dev-token') =>
      (await (await world().handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers: { ...headers, 'PRIVATE-TOKEN': token }, body: JSON.stringify({ query }) }))).json()) as any;
    const retried = await call(`mutation { pipelineRetry(input: { id: "gid://gitlab/Ci::Pipeline/${first.id}" }) { errors pipeline { iid jobs(retried: false) { nodes { name status } } } } }`);
    expect(retried.data.pipelineRetry.errors).toEqual([]);
    const jobs = (await rest(`/projects/acme%2Fapp/pipelines/${first.id}/jobs`)) as any[];
    expect(retried.data.pipelineRetry.pipeline.jobs.nodes.map((j: any) => [j.name, j.status]).sort()).toEqual(jobs.map((j) => [j.name, j.status.toUpperCase()]).sort());
    expect(jobs.find((j) => j.name === 'test').status).not.toBe('failed');
    const cancel = await call(`mutation { pipelineCancel(input: { id: "gid://gitlab/Ci::Pipeline/${second.id}" }) { errors } }`);
    expect(cancel.data.pipelineCancel).toEqual({ errors: [] });
    expect((await rest(`/projects/acme%2Fapp/pipelines/${second.id}`)).status).toBe('canceled');
    const refused = await call(`mutation { pipelineCancel(input: { id: "gid://gitlab/Ci::Pipeline/${first.id}" }) { errors } }`, 'reporter-token');
    expect(refused.errors[0].message).toBe("The resource that you are attempting to access does not exist or you don't have permission to perform this action");
  });
});

describe('ciVariables', () => {
  it("lists a project's variables to those who may administer them, as REST does", async () => {
    const made = await apiCall(world(), '/projects/acme%2Fapp/variables', { method: 'POST', token: 'maintainer-token', json: { key: 'TOKEN', value: 's3cret-value', masked: true, protected: true } });
    expect(made.status).toBe(201);
    await apiCall(world(), '/projects/acme%2Fapp/variables', { method: 'POST', token: 'maintainer-token', json: { key: 'CONFIG', value: 'x', variable_type: 'file' } });
    const q = '{ project(fullPath: "acme/app") { ciVariables { limit nodes { key value variableType masked protected raw environmentScope } } } }';
    const d = await data(q, 'maintainer-token');
    const r = (await rest('/projects/acme%2Fapp/variables', 'maintainer-token')) as any[];
    expect(d.project.ciVariables.nodes).toEqual(r.map((v) => ({ key: v.key, value: v.value, variableType: v.variable_type.toUpperCase(), masked: v.masked, protected: v.protected, raw: v.raw, environmentScope: v.environment_scope })));
    expect(d.project.ciVariables.limit).toBe(8000);
    expect((await apiCall(world(), '/projects/acme%2Fapp/variables', { token: 'dev-token' })).status).toBe(403);
    expect(await data('{ project(fullPath: "acme/app") { ciVariables { nodes { key } } } }', 'dev-token')).toEqual({ project: { ciVariables: null } });
  });
});

describe('snippets', () => {
  it("lists a project's snippets as REST does", async () => {
    for (const token of ['dev-token', 'guest-token']) {
      const d = await data('{ project(fullPath: "acme/app") { snippets { nodes { id title fileName visibilityLevel author { username } webUrl } } } }', token);
      const r = (await rest('/projects/acme%2Fapp/snippets', token)) as any[];
      expect(d.project.snippets.nodes.map((x: any) => [x.id, x.title, x.fileName, x.visibilityLevel, x.author.username, x.webUrl])).toEqual(
        r.map((x) => [`gid://gitlab/ProjectSnippet/${x.id}`, x.title, x.file_name, x.visibility, x.author.username, x.web_url]),
      );
    }
  });
});

describe('wikiPage', () => {
  it('finds a project wiki page by slug, as the wiki API names it, for those who may read the wiki', async () => {
    const project = await rest('/projects/acme%2Fapp');
    const page = await rest('/projects/acme%2Fapp/wikis/Getting-started');
    const q = 'query($p: ProjectID, $slug: String) { wikiPage(projectId: $p, slug: $slug) { id slug title webUrl } }';
    const d = await data(q, 'guest-token', { p: `gid://gitlab/Project/${project.id}`, slug: 'Getting-started' });
    expect(d.wikiPage).toEqual({ id: expect.stringMatching(/^gid:\/\/gitlab\/WikiPage::Meta\/\d+$/), slug: page.slug, title: page.title, webUrl: `${ORIGIN}/acme/app/-/wikis/Getting-started` });
    expect(await data(q, 'outsider-token', { p: `gid://gitlab/Project/${project.id}`, slug: 'Getting-started' })).toEqual({ wikiPage: null });
    expect(await data(q, 'guest-token', { p: `gid://gitlab/Project/${project.id}`, slug: 'nope' })).toEqual({ wikiPage: null });
  });

  it('finds a group wiki page by namespaceId on Premium, as the group wiki API names it; none on Free', async () => {
    const premium = await createEmulator({ clock: { now: '2024-03-01T10:00:00Z', frozen: true }, fixture: { ...FIXTURE, instance: { tier: 'premium' } } });
    const call = async (path: string, init: { method?: string; json?: unknown; token?: string } = {}) => (await apiCall(premium, path, { token: 'root-token', ...init })).json();
    const made = await call('/groups/acme/wikis', { method: 'POST', json: { title: 'Runbook', content: 'Page the owner.' } });
    const group = await call('/groups/acme');
    const q = 'query($n: NamespaceID, $slug: String) { wikiPage(namespaceId: $n, slug: $slug) { slug title webUrl } }';
    const ask = async (e: typeof premium, token: string): Promise<any> => {
      const body = JSON.stringify({ query: q, variables: { n: `gid://gitlab/Group/${group.id}`, slug: made.slug } });
      const res = await e.handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': token }, body }));
      return res.json();
    };
    expect((await ask(premium, 'dev-token')).data.wikiPage).toEqual({ slug: made.slug, title: made.title, webUrl: `${ORIGIN}/groups/acme/-/wikis/${made.slug}` });
    expect((await ask(world(), 'dev-token')).data.wikiPage).toBeNull();
  });
});
