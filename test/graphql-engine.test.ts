// GraphQL's engine at /api/graphql: the two methods, multiplexed operations, graphql-ruby's error
// envelope, GitlabSchema's limits, REST's credentials, and introspection of GitLab's names.
import { buildClientSchema, getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, ORIGIN, TEAM, seededWorld, teamProject } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({ name: 'App' }), { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root' }],
};
const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await world().handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) }));
  expect(res.status).toBe(200);
  return res.json() as Promise<any>;
}
const gql = (query: string, token?: string, extra: Record<string, unknown> = {}) => post({ query, ...extra }, token ? { Authorization: `Bearer ${token}` } : {});

describe('the engine', () => {
  it('answers a query by POST and by GET, with variables and an operation name', async () => {
    expect(await gql('query Me { currentUser { username } }', 'dev-token')).toEqual({ data: { currentUser: { username: 'dev' } } });
    const q = encodeURIComponent('query A { echo(text: "a") } query B($t: String!) { echo(text: $t) }');
    const res = await world().handle(new Request(`${ORIGIN}/api/graphql?query=${q}&operationName=B&variables=${encodeURIComponent('{"t":"hi"}')}`, { headers: { 'PRIVATE-TOKEN': 'dev-token' } }));
    expect(await res.json()).toEqual({ data: { echo: '"dev" says: hi' } });
    expect(await gql('{ echo(text: "x") }')).toEqual({ data: { echo: 'nil says: x' } });
  });

  it('answers a JSON array of operations with an array, in order', async () => {
    const out = await post([{ query: '{ currentUser { username } }' }, { query: '{ nope }' }, { query: 'query($p: ID!) { project(fullPath: $p) { name } }', variables: { p: 'acme/site' } }], { 'PRIVATE-TOKEN': 'reporter-token' });
    expect(out).toHaveLength(3);
    expect(out[0]).toEqual({ data: { currentUser: { username: 'rep' } } });
    expect(out[1].errors[0].message).toBe("Field 'nope' doesn't exist on type 'Query'");
    expect(out[2]).toEqual({ data: { project: { name: 'site' } } });
  });

  it("words its refusals as graphql-ruby does", async () => {
    expect(await gql('{ nope { id } }')).toEqual({
      errors: [{
        message: "Field 'nope' doesn't exist on type 'Query'",
        locations: [{ line: 1, column: 3 }],
        path: ['query', 'nope'],
        extensions: { code: 'undefinedField', typeName: 'Query', fieldName: 'nope' },
      }],
    });
    expect((await gql('query Q { project(fullPath: "acme/site") { nope } }')).errors[0]).toMatchObject({ message: "Field 'nope' doesn't exist on type 'Project'", path: ['query Q', 'project', 'nope'] });
    expect((await gql('{ currentUser }')).errors[0]).toMatchObject({ message: "Field must have selections (field 'currentUser' returns UserCore but has no selections. Did you mean 'currentUser { ... }'?)", extensions: { code: 'selectionMismatch' } });
    expect((await gql('{ currentUser { ')).errors).toEqual([{ message: 'Parse error on "" (EOF) at [1, 17]', locations: [{ line: 1, column: 17 }] }]);
    expect((await gql('{ currentUser { } }')).errors[0].message).toBe('Parse error on "}" (RCURLY) at [1, 17]');
    expect((await gql('{ project(fullPath: "x", bad: 1) { name } }')).errors[0]).toMatchObject({ message: "Field 'project' doesn't accept argument 'bad'", extensions: { code: 'argumentNotAccepted' } });
    expect((await gql('{ project { name } }')).errors[0].message).toBe("Field 'project' is missing required arguments: fullPath");
    expect((await gql('{ project(fullPath: $p) { name } }')).errors[0].message).toBe('Variable $p is used by anonymous query but not declared');
    expect(await gql('')).toEqual({ errors: [{ message: 'No query string was present' }] });
    expect((await gql('query A { echo(text: "a") } query B { echo(text: "b") }')).errors[0].message).toBe('An operation name is required');
  });

  it('holds queries to GitLab depth and complexity limits, by who asks', async () => {
    const nested = (n: number) => `{ project(fullPath: "acme/site") { group { ${'parent { '.repeat(n)}id${' }'.repeat(n)} } } }`;
    // project, group, n parents and the leaf.
    expect((await gql(nested(13))).errors[0].message).toBe('Query has depth of 16, which exceeds max depth of 15');
    expect((await gql(nested(12))).data).toEqual({ project: { group: { parent: null } } });
    expect((await gql(nested(13), 'dev-token')).data).toEqual({ project: { group: { parent: null } } });
    const deep = `{ ${'a { '.repeat(100_000)}b${' }'.repeat(100_000)} }`;
    expect((await gql(deep)).errors[0].message).toBe('Query has depth of 100001, which exceeds max depth of 15');
    // A connection costs its selection plus 1% of it per item it may load.
    const wide = (first: number) => `{ projects(first: ${first}) { nodes { ${Array.from({ length: 100 }, (_, i) => `f${i}: name`).join(' ')} } } }`;
    expect((await gql(wide(100))).errors[0].message).toBe('Query has complexity of 204, which exceeds max complexity of 200');
    expect((await gql(wide(100), 'dev-token')).data.projects.nodes.length).toBeGreaterThan(0);
    expect((await gql(wide(1))).data.projects.nodes.length).toBe(1);
  });

  it('authenticates as REST does: tokens, the session, and a bad token is anonymous', async () => {
    expect((await post({ query: '{ currentUser { username } }' }, { 'PRIVATE-TOKEN': 'maintainer-token' })).data.currentUser.username).toBe('mai');
    const bad = await world().handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': 'no-such-token' }, body: '{"query":"{ currentUser { username } }"}' }));
    expect(bad.status).toBe(401);
    expect((await gql('{ currentUser { username } }')).data).toEqual({ currentUser: null });
  });

  it('introspects with GitLab names', async () => {
    const out = await gql('{ __schema { queryType { name } mutationType { name } types { name } } __type(name: "Project") { fields { name } } }', 'dev-token');
    const names = out.data.__schema.types.map((t: { name: string }) => t.name);
    for (const t of ['Project', 'Group', 'Namespace', 'UserCore', 'Issue', 'MergeRequest', 'Label', 'Milestone', 'IssueConnection', 'PageInfo', 'IssueState', 'CreateIssuePayload']) expect(names).toContain(t);
    expect(out.data.__schema.queryType.name).toBe('Query');
    expect(out.data.__schema.mutationType.name).toBe('Mutation');
    expect(out.data.__type.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['fullPath', 'issues', 'mergeRequests', 'repository', 'webUrl']));
  });

  it("answers GraphiQL's full introspection query to anonymous callers, and a client builds GitLab's schema from it", async () => {
    const out = await gql(getIntrospectionQuery());
    expect(out.errors).toBeUndefined();
    const schema = buildClientSchema(out.data);
    expect(Object.keys(schema.getQueryType()!.getFields())).toEqual(expect.arrayContaining(['project', 'group', 'currentUser', 'workItem']));
    expect(Object.keys(schema.getMutationType()!.getFields())).toEqual(expect.arrayContaining(['createIssue', 'mergeRequestAccept', 'pipelineRetry', 'awardEmojiAdd']));
    expect((schema.getType('Project') as any).getFields().fullPath.description).toBe('Full path of the project.');
    expect((schema.getType('IssueState') as any).getValues().map((v: { name: string }) => v.name)).toEqual(['opened', 'closed', 'locked', 'all']);
  });

  it('is safe for the names of Object.prototype', async () => {
    expect((await gql('{ constructor }')).errors[0].extensions).toMatchObject({ code: 'undefinedField', fieldName: 'constructor' });
    expect(JSON.stringify(await gql('{ __proto__: currentUser { username } }', 'dev-token'))).toBe('{"data":{"__proto__":{"username":"dev"}}}');
    expect(await gql('{ project(fullPath: "__proto__") { name } }', 'dev-token')).toEqual({ data: { project: null } });
  });

  it("answers python-gitlab's gitlab.GraphQL over the server: gql's printed document with a Bearer token", async () => {
    const emulator = await createEmulator({ fixture: FIXTURE });
    const server = await emulator.listen({ port: 0 });
    try {
      const res = await fetch(`${server.url}/api/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer dev-token', 'User-Agent': 'python-gitlab/8.4.0' },
        body: JSON.stringify({ query: 'query {\n  currentUser {\n    active\n  }\n}' }),
      });
      expect(await res.json()).toEqual({ data: { currentUser: { active: true } } });
    } finally {
      await server.close();
    }
  });
});
