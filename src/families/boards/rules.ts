// Boards::CreateService (a board with its backlog and closed lists), UpdateService,
// DestroyService, and Boards::Lists::CreateService, MoveService and DestroyService; who may
// read and change boards (ProjectPolicy read_issue_board / admin_issue_board, GroupPolicy's).
import { ACCESS, sequences, type Namespace, type Project, type User } from '../../store/state.js';
import { tdel, tget, tset, tvalues } from '../../store/table.js';
import { ancestry, canReadGroup, canUseFeature, groupAccess, projectAccess } from '../../policy/access.js';
import { plain, type Change } from '../define.js';
import type { State } from '../world.js';
import { invalidBoard, listNotCreated, listNotMoved } from './errors.js';
import type { Board, BoardList } from './records.js';

const ids = sequences(['board', 'board_list']);

export type Parent = { kind: 'project'; project: Project } | { kind: 'group'; group: Namespace };

const owns = (b: Board, p: Parent) => (p.kind === 'project' ? b.projectId === p.project.id : b.groupId === p.group.id);

export const boardsOf = (state: State, parent: Parent): Board[] => [...tvalues(state.boards)].filter((b) => owns(b, parent)).sort((a, b) => a.id - b.id);
export function findBoard(state: State, parent: Parent, id: number): Board | undefined {
  const b = tget(state.boards, id);
  return b && owns(b, parent) ? b : undefined;
}

/**
 * List#destroyable: the lists a caller places (not backlog or closed), by position. A label
 * list goes with its label (dependent destroy): one whose label is gone is no list.
 */
export const movableLists = (state: State, board: Board): BoardList[] =>
  [...tvalues(state.boardLists)]
    .filter((l) => l.boardId === board.id && l.position !== null && (l.labelId === null || tget(state.labels, l.labelId) !== undefined))
    .sort((a, b) => a.position! - b.position! || a.id - b.id);

export const findList = (state: State, board: Board, id: number): BoardList | undefined => movableLists(state, board).find((l) => l.id === id);

/** read_issue_board: who reads the project's issues; read_group_boards: who reads the group. */
export const canReadProjectBoards = (s: State, u: User | null, p: Project, now: number) => canUseFeature(s, u, p, 'issues', now);
export const canReadGroupBoards = (s: State, u: User | null, g: Namespace, now: number) => canReadGroup(s, u, g, now);
/** admin_issue_board and admin_issue_board_list: Reporters and above. */
export const canAdminProjectBoards = (s: State, u: User | null, p: Project, now: number) => !!u && (u.admin || projectAccess(s, u, p, now) >= ACCESS.reporter);
export const canAdminGroupBoards = (s: State, u: User | null, g: Namespace, now: number) => !!u && (u.admin || groupAccess(s, u, g, now) >= ACCESS.reporter);

function validateName(name: string): void {
  if (name.trim() === '') throw invalidBoard({ name: ["can't be blank"] });
  if (name.length > 255) throw invalidBoard({ name: ['is too long (maximum is 255 characters)'] });
}

/** Boards::CreateService: the board, its backlog list and its closed list. */
export function createBoard(parent: Parent, name: string, now: number): Change<Board> {
  validateName(name);
  return (draft) => {
    const s = draft as State;
    const board: Board = {
      id: ids.next(draft, 'board'), projectId: parent.kind === 'project' ? parent.project.id : null, groupId: parent.kind === 'group' ? parent.group.id : null,
      name, hideBacklogList: false, hideClosedList: false, milestoneId: null, assigneeId: null, labelIds: [], weight: null, createdAt: now,
    };
    tset(s.boards, board.id, board);
    for (const listType of ['backlog', 'closed'] as const) {
      const list: BoardList = { id: ids.next(draft, 'board_list'), boardId: board.id, listType, labelId: null, userId: null, milestoneId: null, position: null };
      tset(s.boardLists, list.id, list);
    }
    return board;
  };
}

export interface BoardChanges {
  name?: string;
  hide_backlog_list?: boolean;
  hide_closed_list?: boolean;
}

export function updateBoard(board: Board, input: BoardChanges): Change<Board> {
  if (input.name !== undefined) validateName(input.name);
  return (draft) => {
    const b = tget((draft as State).boards, board.id)!;
    if (input.name !== undefined) b.name = input.name;
    if (input.hide_backlog_list !== undefined) b.hideBacklogList = input.hide_backlog_list;
    if (input.hide_closed_list !== undefined) b.hideClosedList = input.hide_closed_list;
    return plain(b);
  };
}

export function destroyBoard(board: Board): Change {
  return (draft) => {
    const s = draft as State;
    for (const l of [...tvalues(s.boardLists)]) if (l.boardId === board.id) tdel(s.boardLists, l.id);
    tdel(s.boards, board.id);
  };
}

/** The labels a board's parent may use: its own and its groups'. */
function labelAvailable(state: State, parent: Parent, labelId: number): boolean {
  const label = tget(state.labels, labelId);
  if (!label) return false;
  if (parent.kind === 'project' && label.projectId === parent.project.id) return true;
  const start = parent.kind === 'project' ? parent.project.namespaceId : parent.group.id;
  return label.groupId !== null && ancestry(state, start).some((g) => g.kind === 'group' && g.id === label.groupId);
}

/** Boards::Lists::CreateService for a label list: after the last list. */
export function createLabelList(state: State, parent: Parent, board: Board, labelId: number): Change<BoardList> {
  if (!labelAvailable(state, parent, labelId)) throw listNotCreated('Label not found');
  const lists = movableLists(state, board);
  if (lists.some((l) => l.listType === 'label' && l.labelId === labelId)) throw listNotCreated('Label has already been taken');
  const position = lists.length ? Math.max(...lists.map((l) => l.position!)) + 1 : 0;
  return (draft) => {
    const list: BoardList = { id: ids.next(draft, 'board_list'), boardId: board.id, listType: 'label', labelId, userId: null, milestoneId: null, position };
    tset((draft as State).boardLists, list.id, list);
    return list;
  };
}

/** Boards::Lists::MoveService: to a position among the movable lists, the others shifting to make room. */
export function moveList(state: State, board: Board, list: BoardList, position: number): Change<BoardList> {
  const lists = movableLists(state, board);
  if (position < 0 || position > lists.length - 1 || position === list.position) throw listNotMoved();
  const order = lists.filter((l) => l.id !== list.id);
  order.splice(position, 0, list);
  return (draft) => {
    const s = draft as State;
    order.forEach((l, i) => (tget(s.boardLists, l.id)!.position = i));
    return plain(tget(s.boardLists, list.id)!);
  };
}

/** Boards::Lists::DestroyService: the lists after it move up. */
export function destroyList(state: State, board: Board, list: BoardList): Change {
  const rest = movableLists(state, board).filter((l) => l.id !== list.id);
  return (draft) => {
    const s = draft as State;
    tdel(s.boardLists, list.id);
    rest.forEach((l, i) => (tget(s.boardLists, l.id)!.position = i));
  };
}

/** What a deleted project or group leaves: none of its boards. */
export function forgetParent(draft: State, kind: 'project' | 'group', id: number): void {
  for (const b of [...tvalues(draft.boards)]) if ((kind === 'project' ? b.projectId : b.groupId) === id) destroyBoard(b)(draft);
}
