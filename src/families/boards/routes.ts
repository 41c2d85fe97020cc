// lib/api/boards.rb and group_boards.rb (with boards_responses.rb): every call authenticated; who
// reads the issues reads the boards, Reporters change them. A group has several boards from the
// Premium tier (multiple_issue_boards_available?); a project has them at every tier.
import { bool, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { forbidden } from '../../core/errors.js';
import type { ProjectView } from '../projects/index.js';
import { group, project, route, type Context } from '../define.js';
import { boardEntity, listEntity } from './entity.js';
import { boardNotFound } from './errors.js';
import {
  boardsOf, canAdminGroupBoards, canAdminProjectBoards, canReadGroupBoards, canReadProjectBoards, createBoard, createLabelList, destroyBoard,
  destroyList, findBoard, findList, moveList, movableLists, updateBoard, type Parent,
} from './rules.js';

const view = (ctx: Context<unknown>): ProjectView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase });
const BOARD_ID = { board_id: int().required() };
const LIST_ID = { ...BOARD_ID, list_id: int().required() };

type ParentOf = (ctx: Context<unknown>) => Parent;
const projectParent: ParentOf = (ctx) => ({ kind: 'project', project: ctx.project });
const groupParent: ParentOf = (ctx) => ({ kind: 'group', group: ctx.group });

/** Project#multiple_issue_boards_available? is true at every tier; Group's from Premium. */
const multipleBoards = (ctx: Context<unknown>, parent: Parent) => parent.kind === 'project' || ctx.state.instance.tier !== 'free';

function parentRoutes(base: string, parentOf: ParentOf, read: ReturnType<typeof project>, admin: ReturnType<typeof project>) {
  const board = (ctx: Context<unknown>, id: number) => {
    const b = findBoard(ctx.state, parentOf(ctx), id);
    if (!b) throw boardNotFound();
    return b;
  };
  const list = (ctx: Context<unknown>, boardId: number, id: number) => {
    const l = findList(ctx.state, board(ctx, boardId), id);
    if (!l) throw boardNotFound();
    return l;
  };
  return [
    route({
      method: 'GET', path: `${base}/:id/boards`, auth: 'user', scope: read, paginated: true,
      handler: (ctx) => json(ctx.paginate(boardsOf(ctx.state, parentOf(ctx))).map((b) => boardEntity(view(ctx), b))),
    }),
    route({
      method: 'GET', path: `${base}/:id/boards/:board_id`, auth: 'user', scope: read, params: BOARD_ID,
      handler: (ctx) => json(boardEntity(view(ctx), board(ctx, ctx.params.board_id))),
    }),
    route({
      method: 'POST', path: `${base}/:id/boards`, auth: 'user', scope: admin, params: { name: str().required() },
      handler: (ctx) => {
        const parent = parentOf(ctx);
        if (!multipleBoards(ctx, parent)) throw forbidden();
        return created(boardEntity(view(ctx), ctx.update(createBoard(parent, ctx.params.name, ctx.now()))));
      },
    }),
    route({
      method: 'PUT', path: `${base}/:id/boards/:board_id`, auth: 'user', scope: admin,
      params: { ...BOARD_ID, name: str(), hide_backlog_list: bool(), hide_closed_list: bool() },
      handler: (ctx) => json(boardEntity(view(ctx), ctx.update(updateBoard(board(ctx, ctx.params.board_id), ctx.params)))),
    }),
    route({
      method: 'DELETE', path: `${base}/:id/boards/:board_id`, auth: 'user', scope: admin, params: BOARD_ID,
      handler: (ctx) => {
        const parent = parentOf(ctx);
        if (!multipleBoards(ctx, parent)) throw forbidden();
        ctx.update(destroyBoard(board(ctx, ctx.params.board_id)));
        return noContent();
      },
    }),
    route({
      method: 'GET', path: `${base}/:id/boards/:board_id/lists`, auth: 'user', scope: read, paginated: true, params: BOARD_ID,
      handler: (ctx) => json(ctx.paginate(movableLists(ctx.state, board(ctx, ctx.params.board_id))).map((l) => listEntity(ctx.state, l))),
    }),
    route({
      method: 'GET', path: `${base}/:id/boards/:board_id/lists/:list_id`, auth: 'user', scope: read, params: LIST_ID,
      handler: (ctx) => json(listEntity(ctx.state, list(ctx, ctx.params.board_id, ctx.params.list_id))),
    }),
    route({
      method: 'POST', path: `${base}/:id/boards/:board_id/lists`, auth: 'user', scope: admin, params: { ...BOARD_ID, label_id: int().required() },
      handler: (ctx) => {
        const b = board(ctx, ctx.params.board_id);
        return created(listEntity(ctx.state, ctx.update(createLabelList(ctx.state, parentOf(ctx), b, ctx.params.label_id))));
      },
    }),
    route({
      method: 'PUT', path: `${base}/:id/boards/:board_id/lists/:list_id`, auth: 'user', scope: admin, params: { ...LIST_ID, position: int().required() },
      handler: (ctx) => {
        const b = board(ctx, ctx.params.board_id);
        const l = list(ctx, b.id, ctx.params.list_id);
        return json(listEntity(ctx.state, ctx.update(moveList(ctx.state, b, l, ctx.params.position))));
      },
    }),
    route({
      method: 'DELETE', path: `${base}/:id/boards/:board_id/lists/:list_id`, auth: 'user', scope: admin, params: LIST_ID,
      handler: (ctx) => {
        const b = board(ctx, ctx.params.board_id);
        ctx.update(destroyList(ctx.state, b, list(ctx, b.id, ctx.params.list_id)));
        return noContent();
      },
    }),
  ];
}

export const boardRoutes = [
  ...parentRoutes('/projects', projectParent, project(canReadProjectBoards), project(canReadProjectBoards, canAdminProjectBoards)),
  ...parentRoutes('/groups', groupParent, group(canReadGroupBoards), group(canAdminGroupBoards)),
];
