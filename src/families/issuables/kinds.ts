// What the shared code knows of each kind of issuable, as the family that owns the kind
// registers it when it loads: notes, quick actions, to-dos, subscriptions and participants reach
// an issue's, a merge request's or an epic's own behaviour here, instead of importing those
// families, which sit above this one.
import type { Draft } from 'immer';
import type { Namespace, Project, User } from '../../store/state.js';
import type { Context } from '../define.js';
import type { State } from '../world.js';
import type { CommandKind } from './command-model.js';
import type { SocialTarget, SocialType, Todo } from './records.js';

export type IssuableType = 'Issue' | 'MergeRequest' | 'Epic';

/** An issuable as notes and quick actions take it: an issue or a merge request with its project, an epic with its group. */
export type IssuableTarget = { type: 'Issue' | 'MergeRequest'; project: Project } | { type: 'Epic'; group: Namespace };

export interface IssuableKind<T extends IssuableTarget = IssuableTarget> {
  readonly type: T['type'];
  /** Note#touch_noteable: a new note moves its `updated_at` to now. */
  touch(draft: Draft<State>, target: T, now: number): void;
  /** Its discussion is locked: only members may comment. */
  locked(target: T): boolean;
  /** Its quick actions (QuickActions::InterpretService with the kind's commands and update service). */
  readonly commands: CommandKind<T>;
}

/** An issue or a merge request, as award emoji, subscriptions and to-dos see it. */
export interface SocialRecord {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  /** What Mentionable reads besides the title. */
  description?: string | null;
}

export interface SocialKind<R extends SocialRecord = SocialRecord> {
  readonly type: SocialType;
  /** The path's collection and the name of its iid parameter (lib/api/award_emoji.rb's `<type>_iid`). */
  readonly segment: 'issues' | 'merge_requests';
  readonly iidParam: 'issue_iid' | 'merge_request_iid';
  /** `read_issue` or `read_merge_request` on the project. */
  readable(state: State, user: User | null, project: Project, now: number): boolean;
  /** The project's record of the iid the caller may see, or `404 Not found` (find_by!). */
  find(ctx: Context<unknown>, iid: string | number): R;
  /** What subscribing asks beyond reading (find_merge_request_with_access(id, :update_merge_request)). */
  mayUpdate?(ctx: Context<unknown>, record: R): boolean;
  /** The record's entity, as the subscription routes answer it. */
  entity(ctx: Context<unknown>, record: R): unknown;
  /** The project's record of the iid, when the caller may read it (a mention's or a to-do's target). */
  readableByIid(state: State, user: User | null, project: Project, iid: number, now: number): R | undefined;
  /** The record a target names, while it exists. */
  record(state: State, t: SocialTarget): R | undefined;
  /** Issuable#participants as far as the emulator keeps them (system notes make no one a participant). */
  participants(record: R): number[];
  /** Its assignees and (a merge request's) reviewers, by user id: whom TodoService gives `assigned` and `review_requested` to-dos. */
  people(record: R): { assignees: readonly number[]; reviewers: readonly number[] };
  /** Entities::Todo's `target` (the record's entity, without the caller) and `target_url`. */
  todoTarget(ctx: Context<unknown>, record: R): Promise<{ target: object; url: string }>;
}

/** An iid from a path: the number declared, or digits; undefined for anything else. */
export const parseIid = (iid: string | number) => (typeof iid === 'number' ? iid : /^\d+$/.test(iid) ? Number(iid) : undefined);

/** A kind of to-do target kept outside projects (an epic): whether the user may still read it, and its entity. */
export interface TodoKind {
  readable(state: State, user: User | null, todo: Todo, now: number): boolean;
  render(ctx: Context<unknown>, todo: Todo): { target: object; url: string; body: string } | null;
}

const TODO_KINDS = new Map<string, TodoKind>();

/** Called once by the family that owns epics, when it loads. */
export function registerTodoKind(type: 'Epic', kind: TodoKind): void {
  TODO_KINDS.set(type, kind);
}

export const todoKind = (type: string): TodoKind | undefined => TODO_KINDS.get(type);

const KINDS = new Map<string, IssuableKind<never>>();
const SOCIAL = new Map<string, SocialKind<never>>();

/** Called once by the family that owns a kind of issuable, when it loads. */
export function registerIssuable<T extends IssuableTarget>(kind: IssuableKind<T>): void {
  KINDS.set(kind.type, kind as unknown as IssuableKind<never>);
}

/** Called once by the family that owns issues or merge requests, when it loads. */
export function registerSocial<R extends SocialRecord>(kind: SocialKind<R>): void {
  SOCIAL.set(kind.type, kind as unknown as SocialKind<never>);
}

export function issuableKind<T extends IssuableTarget>(target: T): IssuableKind<T> {
  const kind = KINDS.get(target.type);
  if (!kind) throw new Error(`no family registers the issuables of type '${target.type}'`);
  return kind as unknown as IssuableKind<T>;
}

/** Every registered kind: their commands make the one table of quick actions. */
export const allIssuableKinds = (): IssuableKind[] => [...KINDS.values()] as unknown as IssuableKind[];

export function socialKind(type: SocialType): SocialKind {
  const kind = SOCIAL.get(type);
  if (!kind) throw new Error(`no family registers the issuables of type '${type}'`);
  return kind as unknown as SocialKind;
}
