// A property: for random issue lists, callers, sorts and page sizes, the issues read a page at a
// time through GraphQL cursors are the issues REST's keyset pages give, in the same order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { ACME, ORIGIN, TEAM, TEAM_MEMBERS, apiCall } from './support/world.js';

const NOW = Date.parse('2024-06-01T00:00:00Z');
const AUTHORS = ['dev', 'rep', 'gus', 'mai'] as const;

const issueArb = fc.record({
  title: fc.constantFrom('alpha', 'Beta', 'beta', 'gamma', 'delta'),
  author: fc.constantFrom(...AUTHORS),
  /** Days after the first: equal days are ties, broken by id. */
  day: fc.integer({ min: 0, max: 5 }),
  updatedDay: fc.integer({ min: 0, max: 5 }),
  due: fc.option(fc.constantFrom('2024-07-01', '2024-07-02', '2024-08-01'), { nil: null }),
  confidential: fc.boolean(),
  closed: fc.boolean(),
});

const SORTS = [
  ['CREATED_DESC', 'created_at', 'desc'], ['CREATED_ASC', 'created_at', 'asc'], ['UPDATED_DESC', 'updated_at', 'desc'],
  ['TITLE_ASC', 'title', 'asc'], ['DUE_DATE_ASC', 'due_date', 'asc'], ['DUE_DATE_DESC', 'due_date', 'desc'],
] as const;

const TOKENS: Record<string, string | undefined> = { dev: 'dev-token', gus: 'guest-token', out: 'outsider-token', anonymous: undefined };

async function graphqlPages(emulator: Emulator, token: string | undefined, sort: string, perPage: number, state: string): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  for (let n = 0; n < 40; n++) {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (token) headers['PRIVATE-TOKEN'] = token;
    const query = `query($after: String, $first: Int, $state: IssuableState) { project(fullPath: "acme/app") { issues(sort: ${sort}, first: $first, after: $after, state: $state) { nodes { iid } pageInfo { hasNextPage endCursor } } } }`;
    const res = await emulator.handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables: { after, first: perPage, state } }) }));
    const body = (await res.json()) as any;
    expect(body.errors).toBeUndefined();
    const issues = body.data.project.issues;
    out.push(...issues.nodes.map((i: { iid: string }) => i.iid));
    if (!issues.pageInfo.hasNextPage) break;
    after = issues.pageInfo.endCursor;
  }
  return out;
}

async function restKeysetPages(emulator: Emulator, token: string | undefined, orderBy: string, sort: string, perPage: number, state: string): Promise<string[]> {
  const out: string[] = [];
  let next: string | null = `/projects/acme%2Fapp/issues?pagination=keyset&order_by=${orderBy}&sort=${sort}&per_page=${perPage}&state=${state}`;
  for (let n = 0; next && n < 40; n++) {
    const res = await apiCall(emulator, next, { token });
    expect(res.status).toBe(200);
    out.push(...((await res.json()) as { iid: number }[]).map((i) => String(i.iid)));
    const link = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '');
    next = link ? link[1]!.replace(`${ORIGIN}/api/v4`, '') : null;
  }
  return out;
}

describe('issues paged by GraphQL cursors and by REST keyset pages', () => {
  it('give the same issues in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(issueArb, { minLength: 0, maxLength: 12 }),
        fc.constantFrom(...Object.keys(TOKENS)),
        fc.constantFrom(...SORTS),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom('opened', 'closed', 'all'),
        async (issues, who, [gqlSort, orderBy, dir], perPage, state) => {
          const day = (d: number) => new Date(NOW - 30 * 86_400_000 + d * 86_400_000).toISOString();
          const fixture: Fixture = {
            users: TEAM,
            groups: [ACME],
            projects: [{
              namespace: 'acme', path: 'app', visibility: 'public', creator: 'root', members: TEAM_MEMBERS,
              issues: issues.map((i) => ({
                title: i.title, author: i.author, created_at: day(i.day), updated_at: day(Math.max(i.day, i.updatedDay)), due_date: i.due,
                confidential: i.confidential, state: i.closed ? 'closed' : 'opened',
              })),
            }],
          };
          const emulator = await createEmulator({ fixture, clock: { now: new Date(NOW).toISOString(), frozen: true } });
          const token = TOKENS[who];
          const viaGraphql = await graphqlPages(emulator, token, gqlSort, perPage, state);
          const viaRest = await restKeysetPages(emulator, token, orderBy, dir, perPage, state);
          expect(viaGraphql).toEqual(viaRest);
          expect(new Set(viaGraphql).size).toBe(viaGraphql.length);
        },
      ),
      { numRuns: 30 },
    );
  }, 120_000);
});
