// Repository storage moves (lib/api/project_repository_storage_moves.rb, snippet_…, and EE's
// group_…): administrators only. Lists newest first; a move is scheduled at once (201) or, for
// every container on a shard, by a timed worker (202).
import { grapeError, notFound, recordNotFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { accepted, created, json } from '../../http/route.js';
import { namespaceByIdOrPath, projectByIdOrPath } from '../../policy/paths.js';
import { route, type Context } from '../define.js';
import { storageMoveEntity } from './entity.js';
import type { ContainerType } from './records.js';
import { allMoves, containerExists, findMove, movesOf, scheduleAllMoves, scheduleMove, shardNames } from './rules.js';

const PLURAL: Record<ContainerType, string> = { project: 'projects', snippet: 'snippets', group: 'groups' };
const NOT_FOUND: Record<ContainerType, string> = { project: 'Project', snippet: 'Snippet', group: 'Group' };

/** `:id` of the container: an administrator finds any project or group, hidden or pending deletion alike. */
function containerId(ctx: Context<unknown>, type: ContainerType, id: string): number {
  const found =
    type === 'project' ? projectByIdOrPath(ctx.state, id)?.id
    : type === 'group' ? (namespaceByIdOrPath(ctx.state, id)?.kind === 'group' ? namespaceByIdOrPath(ctx.state, id)!.id : undefined)
    : /^\d+$/.test(id) && containerExists(ctx.state, 'snippet', Number(id)) ? Number(id) : undefined;
  if (found === undefined) throw notFound(NOT_FOUND[type]);
  return found;
}

const ID = { id: str().required() };
const MOVE_ID = { repository_storage_move_id: int().required() };

function routesFor(type: ContainerType) {
  const all = `/${type}_repository_storage_moves`;
  const mine = `/${PLURAL[type]}/:id/repository_storage_moves`;
  const tier = type === 'group' ? ('premium' as const) : undefined;
  const render = (ctx: Context<unknown>) => (m: Parameters<typeof storageMoveEntity>[1]) => storageMoveEntity(ctx.state, m, ctx);
  return [
    route({
      method: 'GET', path: all, auth: 'admin', tier, paginated: true,
      handler: (ctx) => json(ctx.paginate(allMoves(ctx.state, type)).map(render(ctx))),
    }),
    route({
      method: 'GET', path: `${all}/:repository_storage_move_id`, auth: 'admin', tier, params: MOVE_ID,
      handler: (ctx) => {
        const move = findMove(ctx.state, type, ctx.params.repository_storage_move_id);
        if (!move) throw recordNotFound();
        return json(render(ctx)(move));
      },
    }),
    route({
      method: 'POST', path: all, auth: 'admin', tier,
      params: {
        source_storage_name: str().required(),
        destination_storage_name: str(),
      },
      handler: (ctx) => {
        // Grape's `values:` of the configured storages, checked before anything else.
        const names = shardNames(ctx.state);
        if (!names.includes(ctx.params.source_storage_name)) throw invalidValue('source_storage_name');
        if (ctx.params.destination_storage_name !== undefined && !names.includes(ctx.params.destination_storage_name)) throw invalidValue('destination_storage_name');
        ctx.update(scheduleAllMoves(ctx.state, type, ctx.params.source_storage_name, ctx.params.destination_storage_name, ctx.now()));
        return accepted();
      },
    }),
    route({
      method: 'GET', path: mine, auth: 'admin', tier, paginated: true, params: ID,
      handler: (ctx) => json(ctx.paginate(movesOf(ctx.state, type, containerId(ctx, type, ctx.params.id))).map(render(ctx))),
    }),
    route({
      method: 'GET', path: `${mine}/:repository_storage_move_id`, auth: 'admin', tier, params: { ...ID, ...MOVE_ID },
      handler: (ctx) => {
        const id = containerId(ctx, type, ctx.params.id);
        const move = findMove(ctx.state, type, ctx.params.repository_storage_move_id);
        if (!move || move.containerId !== id) throw recordNotFound();
        return json(render(ctx)(move));
      },
    }),
    route({
      method: 'POST', path: mine, auth: 'admin', tier, params: { ...ID, destination_storage_name: str() },
      handler: (ctx) => {
        const id = containerId(ctx, type, ctx.params.id);
        const move = ctx.update(scheduleMove(ctx.state, type, id, ctx.params.destination_storage_name, ctx.now()));
        return created(render(ctx)(move));
      },
    }),
  ];
}

const invalidValue = (name: string) => grapeError(400, `${name} does not have a valid value`);

export const storageMoveRoutes = [...routesFor('project'), ...routesFor('snippet'), ...routesFor('group')];
