// Gitlab::QuickActions::Extractor: the command lines of a text (the interpreter decides which
// names are commands), and the milestone a command names by its title.
import { tget } from '../../store/table.js';
import type { Project } from '../../store/state.js';
import type { State } from '../world.js';
import { ownMilestones } from '../milestones/index.js';
import { ancestry } from '../../policy/access.js';

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

/** A milestone title of the project or its groups, as `/milestone %title` names it. */
export function milestoneIdByTitle(state: State, project: Project, title: string): number | null {
  const ns = tget(state.namespaces, project.namespaceId);
  const owners: ({ projectId: number } | { groupId: number })[] = [{ projectId: project.id }];
  if (ns && ns.kind === 'group') for (const g of ancestry(state, ns.id)) owners.push({ groupId: g.id });
  for (const o of owners) for (const m of ownMilestones(state, o)) if (m.title === title) return m.id;
  return null;
}
