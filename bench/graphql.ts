// A typical project query through GraphQL (what a dashboard or an IDE asks: the project, its
// latest issues with authors and labels, its merge requests, its labels) against the four REST
// calls that fetch the same data, in CPU time per answer, in the same run. Each answer is made on
// a changed world, so no cache answers it. Run with `npx tsx bench/graphql.ts`. Goal: within 2x.
import { createEmulator, type Emulator } from '../src/index.js';
import { compare, cpu } from './cpu-ratio.js';

const BASE = 'https://gitlab.example.com';
const headers = { 'PRIVATE-TOKEN': 'dev', 'Content-Type': 'application/json' };

const QUERY = `query($path: ID!) { project(fullPath: $path) {
  id name fullPath description webUrl visibility
  issues(first: 20) { nodes { iid title state createdAt author { username } labels { nodes { title } } } pageInfo { hasNextPage endCursor } }
  mergeRequests(first: 20) { nodes { iid title state sourceBranch targetBranch author { username } } }
  labels { nodes { title color } } } }`;

async function world(): Promise<Emulator> {
  return createEmulator({
    fixture: {
      users: [{ username: 'root', admin: true, tokens: [{ token: 'root' }] }, { username: 'dev', tokens: [{ token: 'dev' }] }],
      groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'developer' }] }],
      projects: [{
        namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', description: 'The app',
        repository: { files: { 'README.md': '# app\n' }, commits: Array.from({ length: 10 }, (_, i) => ({ branch: `b${i}`, message: `m${i}`, files: { [`f${i}.txt`]: 'x\n' } })) },
        labels: [{ name: 'bug' }, { name: 'ux' }, { name: 'doc' }],
        issues: Array.from({ length: 200 }, (_, i) => ({ title: `Issue ${i}`, author: i % 2 ? 'dev' : 'root', labels: i % 3 ? ['bug'] : ['ux', 'doc'], state: i % 4 ? 'opened' as const : 'closed' as const })),
        merge_requests: Array.from({ length: 10 }, (_, i) => ({ title: `MR ${i}`, source_branch: `b${i}`, author: 'dev' })),
      }],
    },
  });
}

async function main(): Promise<void> {
  const e = await world();
  const graphql = async () => {
    e.clock.advance(1);
    const res = await e.handle(new Request(`${BASE}/api/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: QUERY, variables: { path: 'acme/app' } }) }));
    const body = (await res.json()) as { data?: unknown };
    if (!body.data) throw new Error(JSON.stringify(body));
  };
  const rest = async () => {
    e.clock.advance(1);
    for (const path of ['', '/issues?per_page=20', '/merge_requests?per_page=20', '/labels']) {
      const res = await e.handle(new Request(`${BASE}/api/v4/projects/acme%2Fapp${path}`, { headers }));
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      await res.json();
    }
  };
  const per = (fn: () => Promise<void>, n: number) => async () => {
    const start = cpu();
    for (let i = 0; i < n; i++) await fn();
    return (cpu() - start) / n;
  };
  await compare('a project query: GraphQL vs the REST calls for the same data', 2, per(rest, 100), per(graphql, 100), 'REST (4 calls)|GraphQL (1 query)');
}

await main();
