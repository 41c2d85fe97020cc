// QuickActions::InterpretService, once for every text that takes quick actions: a note on an
// issue, a merge request or an epic (Notes::QuickActionsService) and the description of an
// issue or a merge request on create and edit (IssuableBaseService#handle_quick_actions). Each
// command is declared once (`Command`): its name and aliases, the kinds that take it, its tier,
// GitLab's condition, its argument's parser, and what it changes (GitLab's update params) and
// says. The commands every kind takes are this family's (commands.ts); each kind's own come
// from the family that registers the kind (CommandKind). A text is read by the extractor
// (scanCommands) for a target that exists already (`persisted`) or is being made.
import type { Draft } from 'immer';
import type { Project, User } from '../../store/state.js';
import { groupLabelOwners, projectLabelOwners } from '../labels/index.js';
import type { State } from '../world.js';
import type { Command, CommandContext, CommandOptions, GitAccess, Updates } from './command-model.js';
import { SHARED_COMMANDS } from './commands.js';
import { allIssuableKinds, issuableKind, type IssuableTarget, type IssuableType } from './kinds.js';
import { scanCommands } from './quick-actions.js';

type AnyCommand = Command<IssuableTarget, unknown>;

let tables: { kinds: number; free: Map<string, AnyCommand>; premium: Map<string, AnyCommand> } | null = null;

/** The one alias table: every name of every command (the shared ones and each registered kind's), by tier. */
function commandTable(premium: boolean): Map<string, AnyCommand> {
  const kinds = allIssuableKinds();
  if (!tables || tables.kinds !== kinds.length) {
    const free = new Map<string, AnyCommand>();
    const all = new Map<string, AnyCommand>();
    const commands = [...(SHARED_COMMANDS as readonly AnyCommand[]), ...kinds.flatMap((k) => k.commands.commands as readonly AnyCommand[])];
    for (const command of commands) {
      for (const name of [command.name, ...(command.aliases ?? [])]) {
        if (all.has(name)) throw new Error(`two quick actions are named '${name}'`);
        all.set(name, command);
        if (command.tier === undefined) free.set(name, command);
      }
    }
    tables = { kinds: kinds.length, free, premium: all };
  }
  return premium ? tables.premium : tables.free;
}

/** What the commands of a text made. */
export interface Interpretation {
  /** The text without the commands taken out (GitLab's `content`), without carriage returns and right-trimmed. */
  content: string;
  /** How many commands were taken out and run or refused (`commands_executed_count`). */
  executed: number;
  /** GitLab's update params. */
  updates: Updates;
  /** Each command's message, in order; `Could not apply <name> command.` for one whose condition is false. */
  messages: string[];
}

/**
 * Interprets the quick actions of a text for a target. Pure: the world is read, not changed.
 * Every known command is taken out of the text, as GitLab's extractor knows every command
 * definition; one whose condition is false for this target and caller does nothing, and says
 * `Could not apply` (which a note's answer shows).
 */
export function interpretCommands<T extends IssuableTarget>(
  state: State, target: T, user: User, text: string, opts: CommandOptions & { persisted: boolean }, now: number,
): Interpretation {
  const premium = state.instance.tier !== 'free';
  // Epics are EE's: on the free tier their texts take no commands.
  if (target.type === 'Epic' && !premium) return { content: text, executed: 0, updates: {}, messages: [] };
  const known = commandTable(premium);
  const kind = issuableKind(target).commands;
  const facts = kind.facts(state, target, user, now);
  const sharedMessages = new Map<string, string>();
  let current = '';
  const c: CommandContext = {
    state, target, user, now, opts, persisted: opts.persisted, facts, premium, u: {},
    labelOwners: target.type === 'Epic' ? groupLabelOwners(state, target.group) : projectLabelOwners(state, (target as { project: Project }).project),
    shared(message) {
      sharedMessages.set(current, message);
      return message;
    },
  };
  // Conditions read the target and the caller, never the params: one answer per command and text.
  const availability = new Map<AnyCommand, boolean>();
  const available = (command: AnyCommand) => {
    let ok = availability.get(command);
    if (ok === undefined) {
      ok = (command.types as readonly IssuableType[]).includes(target.type) && command.condition(c);
      availability.set(command, ok);
    }
    return ok;
  };
  const { content, commands } = scanCommands(text, (name) => known.has(name));
  const outcomes: { command: AnyCommand; message: string | null | false }[] = [];
  for (const found of commands) {
    const command = known.get(found.name)!;
    if (!available(command)) {
      outcomes.push({ command, message: false });
      continue;
    }
    current = command.name;
    const arg = found.arg === '' ? undefined : command.parse ? command.parse(c, found.arg) : found.arg;
    outcomes.push({ command, message: command.run(c, arg) });
  }
  // execution_messages_for: a command's message is the last one its name set, else its own.
  const messages: string[] = [];
  for (const { command, message } of outcomes) {
    const said = message === false ? `Could not apply ${command.name} command.` : sharedMessages.get(command.name) ?? message;
    if (said) messages.push(said);
  }
  return { content, executed: commands.length, updates: c.u, messages };
}

export interface NoteCommands {
  /** The body without the command lines that were recognised (GitLab's `content`); '' when the body was commands only. */
  content: string;
  /** How many commands were recognised and run (`commands_executed_count`). */
  executed: number;
  /** GitLab's update_params as the note's `commands_changes` renders them, in GitLab's key order. */
  changes: Record<string, unknown>;
  /**
   * The messages of the commands, in order (GitLab joins them with a space into the one string
   * of the 202 answer's `summary`); a command that could not run says `Could not apply <name>
   * command.`; empty when no command produced a message (then GitLab answers `Failed to apply commands.`).
   */
  messages: string[];
  /**
   * Applies the updates to the noteable (Issues::UpdateService and friends, with their system
   * notes, resource events, to-dos and subscriptions), given the saved note's id (null when the
   * note is commands only and not saved); sets `changes.spend_time.note_id` as GitLab does.
   * null when nothing to apply.
   */
  apply: ((draft: Draft<State>, noteId: number | null) => void) | null;
  /**
   * Work to await before `apply` (the git side of `/merge`: the merge commit); null when none.
   * A merge that cannot happen (conflict, moved branch) leaves the merge request open, as
   * GitLab's asynchronous merge does.
   */
  prepare?: ((ctx: GitAccess) => Promise<void>) | null;
}

/** Note#commands_changes: the update params it shows, in its order. */
const CHANGE_KEYS = [
  'due_date', 'label_ids', 'remove_label_ids', 'add_label_ids', 'canonical_issue_id', 'clone_with_notes', 'confidential', 'create_merge_request', 'add_contacts',
  'remove_contacts', 'assignee_ids', 'milestone_id', 'time_estimate', 'spend_time', 'discussion_locked', 'merge', 'rebase', 'wip_event', 'target_branch',
  'reviewer_ids', 'health_status', 'promote_to_epic', 'weight', 'emoji_award', 'todo_event', 'subscription_event', 'state_event', 'title', 'tag_message', 'tag_name',
];

/**
 * The quick actions of a note's body for its noteable (as it was before the note): every known
 * command is taken out and counted; what ran becomes GitLab's update params (`commands_changes`),
 * applied by `apply` as the kind's update service applies them.
 */
export function interpretNoteCommands<T extends IssuableTarget>(state: State, target: T, user: User, body: string, opts: CommandOptions, now: number): NoteCommands {
  const { content, executed, updates: u, messages } = interpretCommands(state, target, user, body, { ...opts, persisted: true }, now);
  const changes: Record<string, unknown> = {};
  const params = u as Record<string, unknown>;
  for (const key of CHANGE_KEYS) if (params[key] !== undefined) changes[key] = params[key];
  if (Object.keys(u).length === 0) return { content, executed, changes, messages, apply: null, prepare: null };
  const update = issuableKind(target).commands.updates(target, user, u, now);
  const apply = (draft: Draft<State>, noteId: number | null) => {
    if (u.spend_time) u.spend_time.note_id = noteId;
    update.apply(draft);
  };
  return { content, executed, changes, messages, apply, prepare: update.prepare };
}

/**
 * The quick actions of a description (IssuableBaseService#merge_quick_actions_into_params!):
 * the text without the commands that ran, and their params. On an edit (`original`, the stored
 * description) the params the stored description's own commands would give are dropped, as
 * execute_with_original_text does.
 */
export function interpretDescription<T extends IssuableTarget>(
  state: State, target: T, user: User, text: string, opts: CommandOptions & { persisted: boolean; original?: string }, now: number,
): { content: string; updates: Updates } {
  const run = (t: string) => interpretCommands(state, target, user, t, opts, now);
  const { content, updates } = run(text);
  if (opts.original !== undefined && Object.keys(updates).length > 0) {
    const before = run(opts.original).updates as Record<string, unknown>;
    const after = updates as Record<string, unknown>;
    for (const key of Object.keys(after)) if (key in before && JSON.stringify(before[key]) === JSON.stringify(after[key])) delete after[key];
  }
  return { content, updates };
}
