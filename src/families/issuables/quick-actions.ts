// Quick actions in an issue's description (Gitlab::QuickActions::Extractor and the issue
// commands of lib/gitlab/quick_actions/*): each `/command` line outside code blocks is taken
// out of the description and applied, when the caller may, as the create or update would.
import { tget } from '../../store/table.js';
import type { Project } from '../../store/state.js';
import type { State } from '../world.js';
import { castDateLike } from './dates.js';
import { parseDuration } from './duration.js';
import { ownMilestones } from '../milestones/index.js';
import { ancestry, today } from '../../policy/access.js';

export interface QuickActions {
  addLabels: string[];
  removeLabels: string[];
  /** All labels off (`/unlabel` with none named). */
  clearLabels: boolean;
  assign: string[];
  unassign: string[] | 'all' | null;
  milestone: string | null | undefined;
  dueDate: string | null | undefined;
  estimate: number | undefined;
  spend: number | undefined;
  confidential: boolean | undefined;
  stateEvent: 'close' | 'reopen' | undefined;
  /** `#n` (or `path#n`) of the issue this one duplicates. */
  duplicateOf: string | undefined;
  weight: number | null | undefined;
  title: string | undefined;
  locked: boolean | undefined;
}

/** `~bug ~"in progress"` -> titles. */
function labelNames(args: string): string[] {
  return [...args.matchAll(/~"([^"]+)"|~([^\s~]+)/g)].map((m) => m[1] ?? m[2]!);
}

function usernames(args: string, me: string): string[] {
  return args.split(/[\s,]+/).filter(Boolean).map((a) => (a === 'me' ? me : a.replace(/^@/, '')));
}

/** The commands that need `admin_issue` (Planner and above). */
const ADMIN_COMMANDS = new Set([
  'label', 'labels', 'unlabel', 'remove_label', 'relabel', 'assign', 'unassign', 'milestone', 'remove_milestone', 'due', 'remove_due_date', 'estimate',
  'estimate_time', 'remove_estimate', 'remove_time_estimate', 'spend', 'spent', 'spend_time', 'confidential', 'duplicate', 'weight', 'clear_weight',
  'remove_weight', 'lock', 'unlock',
]);
/** The commands a description runs. */
const DESCRIPTION_COMMANDS = new Set([
  'label', 'labels', 'unlabel', 'remove_label', 'relabel', 'assign', 'unassign', 'milestone', 'remove_milestone', 'due', 'remove_due_date', 'estimate',
  'estimate_time', 'remove_estimate', 'remove_time_estimate', 'spend', 'spent', 'spend_time', 'confidential', 'close', 'reopen', 'duplicate', 'weight',
  'clear_weight', 'remove_weight', 'title', 'lock', 'unlock',
]);
/** The commands that need the issue to exist already (`persisted?`). */
const EXISTING_ONLY = new Set(['close', 'reopen', 'duplicate', 'title', 'lock', 'unlock']);

/** A command line found in a text: its name (lower case) and its argument (trimmed, '' when none). */
export interface FoundCommand {
  name: string;
  arg: string;
}

const FENCE = /^```/;
const HTML_OPEN = /^<[^>]+>$/;
const HTML_CLOSE = /^<\/[^>]+>$/;

/**
 * Gitlab::QuickActions::Extractor: every line `/name arg` at the start of a line whose name
 * `known` accepts, outside fenced code (```), HTML blocks, `>>>` quotes and inline code spread
 * over lines, is taken out of the text (with the blank lines right after it) and returned in
 * order; the rest is the text, right-trimmed. Linear in the text's length.
 */
export function scanCommands(text: string, known: (name: string) => boolean): { content: string; commands: FoundCommand[] } {
  const body = text.replace(/\r/g, '');
  const lines = body.split('\n');
  const commands: FoundCommand[] = [];
  const kept: string[] = [];
  // The next line (at or after each index) that closes each kind of block, found once, backwards.
  const nextFence: number[] = new Array(lines.length + 1).fill(-1);
  const nextQuote: number[] = new Array(lines.length + 1).fill(-1);
  const nextHtml: number[] = new Array(lines.length + 1).fill(-1);
  const nextTick: number[] = new Array(lines.length + 1).fill(-1);
  for (let i = lines.length - 1; i >= 0; i--) {
    nextFence[i] = lines[i] === '```' ? i : nextFence[i + 1]!;
    nextQuote[i] = lines[i] === '>>>' ? i : nextQuote[i + 1]!;
    nextHtml[i] = HTML_CLOSE.test(lines[i]!) ? i : nextHtml[i + 1]!;
    nextTick[i] = lines[i]!.endsWith('`') ? i : nextTick[i + 1]!;
  }
  let skipBlank = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let close = -1;
    if (FENCE.test(line)) close = line.length > 3 ? nextFence[i + 1]! : i + 2 <= lines.length ? nextFence[i + 2]! : -1;
    else if (line.startsWith('>>>')) close = line.length > 3 ? nextQuote[i + 1]! : i + 2 <= lines.length ? nextQuote[i + 2]! : -1;
    else if (HTML_OPEN.test(line)) close = i + 2 <= lines.length ? nextHtml[i + 2]! : -1;
    // Inline code over several lines: a line with an unpaired backtick, to the next line that ends with one.
    if (close <= i && (line.match(/`/g)?.length ?? 0) % 2 === 1) close = nextTick[i + 1]!;
    if (close > i) {
      for (let j = i; j <= close; j++) kept.push(lines[j]!);
      i = close;
      skipBlank = false;
      continue;
    }
    if (skipBlank && line.trim() === '' && i < lines.length - 1) continue;
    const m = /^\/([a-zA-Z0-9_]+)(?: ([^\n]*)|\s*)$/.exec(line);
    if (m && known(m[1]!.toLowerCase())) {
      commands.push({ name: m[1]!.toLowerCase(), arg: (m[2] ?? '').trim() });
      skipBlank = true;
      continue;
    }
    skipBlank = false;
    kept.push(line);
  }
  return { content: kept.join('\n').trimEnd(), commands };
}

/**
 * The description without the command lines the caller may run, and those commands (the
 * others stay in the text, as GitLab's extractor leaves commands that are not available).
 */
export function extractQuickActions(description: string, me: string, now: number, may: { admin: boolean; existing: boolean }): { description: string; actions: QuickActions } {
  const a: QuickActions = {
    addLabels: [], removeLabels: [], clearLabels: false, assign: [], unassign: null, milestone: undefined, dueDate: undefined, estimate: undefined,
    spend: undefined, confidential: undefined, stateEvent: undefined, duplicateOf: undefined, weight: undefined, title: undefined, locked: undefined,
  };
  const runnable = (cmd: string) => DESCRIPTION_COMMANDS.has(cmd) && !(ADMIN_COMMANDS.has(cmd) && !may.admin) && !(EXISTING_ONLY.has(cmd) && !may.existing);
  const { content, commands } = scanCommands(description, runnable);
  for (const { name: cmd, arg: args } of commands) {
    switch (cmd) {
      case 'label': case 'labels': a.addLabels.push(...labelNames(args)); break;
      case 'unlabel': case 'remove_label': if (args) a.removeLabels.push(...labelNames(args)); else a.clearLabels = true; break;
      case 'relabel': a.clearLabels = true; a.addLabels.push(...labelNames(args)); break;
      case 'assign': a.assign.push(...usernames(args, me)); break;
      case 'unassign': a.unassign = args ? usernames(args, me) : 'all'; break;
      case 'milestone': a.milestone = args.replace(/^%"?|"$/g, ''); break;
      case 'remove_milestone': a.milestone = null; break;
      case 'due': a.dueDate = args === 'today' ? today(now) : args === 'tomorrow' ? today(now + 86_400_000) : castDateLike(args); break;
      case 'remove_due_date': a.dueDate = null; break;
      case 'estimate': case 'estimate_time': { const s = parseDuration(args, true); if (s !== null && s >= 0) a.estimate = s; break; }
      case 'remove_estimate': case 'remove_time_estimate': a.estimate = 0; break;
      case 'spend': case 'spent': case 'spend_time': { const s = parseDuration(args.split(/\s+\d{4}-\d{2}-\d{2}$/)[0]!); if (s !== null) a.spend = s; break; }
      case 'confidential': a.confidential = true; break;
      case 'close': a.stateEvent = 'close'; break;
      case 'reopen': a.stateEvent = 'reopen'; break;
      case 'duplicate': if (/#\d+/.test(args)) a.duplicateOf = args.split(/\s+/)[0]!; break;
      case 'weight': if (/^\d+$/.test(args)) a.weight = Number(args); break;
      case 'clear_weight': case 'remove_weight': a.weight = null; break;
      case 'title': if (args) a.title = args; break;
      case 'lock': a.locked = true; break;
      case 'unlock': a.locked = false; break;
    }
  }
  return { description: content.replace(/^\n+/, ''), actions: a };
}

/** A milestone title of the project or its groups, as `/milestone %title` names it. */
export function milestoneIdByTitle(state: State, project: Project, title: string): number | null {
  const ns = tget(state.namespaces, project.namespaceId);
  const owners: ({ projectId: number } | { groupId: number })[] = [{ projectId: project.id }];
  if (ns && ns.kind === 'group') for (const g of ancestry(state, ns.id)) owners.push({ groupId: g.id });
  for (const o of owners) for (const m of ownMilestones(state, o)) if (m.title === title) return m.id;
  return null;
}
