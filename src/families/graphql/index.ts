// GraphQL next to REST (app/graphql, GitlabSchema): POST /api/graphql, and GET for queries, over
// the same world, credentials and transaction as the REST routes. The engine and graphql-js load
// with the first GraphQL request, so the package's import does not pay for them.
import { any } from '../../http/params.js';
import type { Reply } from '../../http/route.js';
import { defineFamily, route, type Context, type Family } from '../define.js';

type Params = { query?: unknown; variables?: unknown; operationName?: unknown };

let engine: Promise<typeof import('./engine.js')> | undefined;

async function graphql(ctx: Context<Params>): Promise<Reply> {
  const { runGraphql } = await (engine ??= import('./engine.js'));
  return runGraphql(ctx);
}

const PARAMS = { query: any(), variables: any(), operationName: any() };

export const graphqlFamily: Family = defineFamily({
  name: 'graphql',
  routes: [
    route({ method: 'POST', path: '/api/graphql', surface: 'web', params: PARAMS, handler: graphql }),
    route({ method: 'GET', path: '/api/graphql', surface: 'web', params: PARAMS, handler: graphql }),
  ],
});
