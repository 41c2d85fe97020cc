// The arguments of the quick actions every kind of issuable takes, as GitLab reads them
// (lib/gitlab/quick_actions/*: find_labels, UsersExtractor, SpendTimeAndDateSeparator,
// find_milestones), and the references their messages write.
import type { Namespace, Project, User } from '../../store/state.js';
import { today } from '../../policy/access.js';
import { tget } from '../../store/table.js';
import { labelById, labelByTitle, ownLabels, type Label, type LabelOwner } from '../labels/index.js';
import { ownMilestones } from '../milestones/index.js';
import type { State } from '../world.js';
import { castDateLike } from './dates.js';
import { parseDuration } from './duration.js';
import { issueMilestone } from './milestones.js';
import { milestoneIdByTitle } from './quick-actions.js';

/** Label#to_reference(format: :name): `~"name"` (`~<id>` when the name holds a double quote). */
export const labelRef = (l: Label) => (l.title.includes('"') ? `~${l.id}` : `~"${l.title}"`);
export const milestoneRef = (title: string) => (title.includes('"') ? `%${title}` : `%"${title}"`);
export const plural = (word: string, n: number) => (n === 1 ? word : `${word}s`);

/** find_labels: `~name`, `~"two words"`, `~<id>` references, or bare names when no `~` is written; unknown ones dropped. */
export function findLabels(state: State, owners: LabelOwner[], arg: string): Label[] {
  const out: Label[] = [];
  const add = (l: Label | undefined) => {
    if (l && !out.some((x) => x.id === l.id)) out.push(l);
  };
  const byTitle = (title: string) => {
    for (const o of owners) {
      const l = labelByTitle(state, o, title);
      if (l) return l;
    }
    return undefined;
  };
  if (arg.includes('~')) {
    for (const m of arg.matchAll(/~"([^"]+)"|~(\d+)(?![\w])|~([A-Za-z0-9_\-?.&]+)/g)) {
      if (m[2] !== undefined) {
        const l = labelById(state, Number(m[2]));
        const ownerOk = l && owners.some((o) => ('projectId' in o ? l.projectId === o.projectId : l.groupId === o.groupId));
        add(ownerOk ? l : undefined);
      } else add(byTitle(m[1] ?? m[3]!));
    }
  } else for (const m of arg.matchAll(/"([^"]+)"|([^ ]+)/g)) add(byTitle(m[1] ?? m[2]!));
  return out;
}

export function anyLabel(state: State, owners: LabelOwner[]): boolean {
  return owners.some((o) => ownLabels(state, o).length > 0);
}

/** UsersExtractor: `@name`, `name`, `me`, split on spaces and commas, `and` dropped; a name not found fails the command. */
export function extractUsers(state: State, me: User, arg: string): { users: User[]; missing: string[] } {
  const args = [...new Set(arg.split(/\s|,/).map((a) => a.trim()).filter((a) => a !== ''))].filter((a) => a !== 'and');
  const users: User[] = [];
  const missing: string[] = [];
  if (args.includes('me')) users.push(me);
  for (const ref of args.filter((a) => a !== 'me').map((a) => a.replace(/\\_/g, '_'))) {
    const id = tget(state.usernames, ref.replace(/^@/, '').toLowerCase());
    const u = id === undefined ? undefined : tget(state.users, id);
    if (u) {
      if (!users.some((x) => x.id === u.id)) users.push(u);
    } else missing.push(`'${ref}'`);
  }
  return { users, missing };
}

const SPEND_DATE = /(\d{2,4}[/\-.]\d{1,2}[/\-.]\d{1,2})/;
const CATEGORY_TAG = '[timecategory:';

/**
 * The matches of GitLab's `/\[timecategory:(.*)\]/` (greedy, `.` stopping at a line's end), in
 * one pass: on each line, from the first tag to the line's last `]`. The expression retries
 * from every tag that no `]` follows, which is quadratic in them.
 */
function categorySpans(text: string): { start: number; end: number; name: string }[] {
  const spans: { start: number; end: number; name: string }[] = [];
  let offset = 0;
  for (const line of text.split(/[\n\r\u2028\u2029]/)) {
    const i = line.indexOf(CATEGORY_TAG);
    const j = line.lastIndexOf(']');
    if (i >= 0 && j >= i + CATEGORY_TAG.length) spans.push({ start: offset + i, end: offset + j + 1, name: line.slice(i + CATEGORY_TAG.length, j) });
    offset += line.length + 1;
  }
  return spans;
}

const withoutSpans = (text: string, spans: readonly { start: number; end: number }[]) => {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start);
    at = s.end;
  }
  return out + text.slice(at);
};

/**
 * SpendTimeAndDateSeparator: the time, a date anywhere in the argument (`2024-01-02`,
 * `2024/1/2`, `24.1.2`; not in the future) and `[timecategory:name]`; null when it cannot be read.
 */
export function parseSpend(arg: string, now: number): { seconds: number; date: string | null; category: string | null } | null {
  if (arg.trim() === '') return null;
  const d = SPEND_DATE.exec(arg);
  let date: string | null = null;
  if (d) {
    const [y, mo, da] = d[1]!.split(/[/\-.]/) as [string, string, string];
    date = castDateLike(`${y.length === 2 ? `20${y}` : y.padStart(4, '0')}-${mo}-${da}`);
    if (date === null || date > today(now)) return null;
  }
  const undated = arg.replace(new RegExp(SPEND_DATE, 'g'), '');
  const seconds = parseDuration(withoutSpans(undated, categorySpans(undated)));
  return seconds === null ? null : { seconds, date, category: categorySpans(arg)[0]?.name ?? null };
}

/** `find_milestones(container, state: 'active').any?`. */
export function hasActiveMilestone(state: State, project: Project): boolean {
  const owners: ({ projectId: number } | { groupId: number })[] = [{ projectId: project.id }];
  const ns = tget(state.namespaces, project.namespaceId);
  if (ns && ns.kind === 'group') {
    let g: Namespace | undefined = ns;
    while (g) {
      owners.push({ groupId: g.id });
      g = g.parentId === null ? undefined : tget(state.namespaces, g.parentId);
    }
  }
  return owners.some((o) => ownMilestones(state, o).some((m) => m.state === 'active'));
}

/** `%"title"`, `%title`, `%<iid>` of the project's milestones, or a title. */
export function findMilestone(state: State, project: Project, arg: string): { id: number; title: string } | undefined {
  const m = /^%(?:"([^"]+)"|(\d+)$|(\S+))/.exec(arg.trim());
  if (m && m[2] !== undefined) {
    const found = ownMilestones(state, { projectId: project.id }).find((x) => x.iid === Number(m[2]));
    if (found) return { id: found.id, title: found.title };
  }
  const title = m ? m[1] ?? m[2] ?? m[3]! : arg.trim();
  const id = milestoneIdByTitle(state, project, title);
  const found = id === null ? undefined : issueMilestone(state, project, id);
  return found ? { id: found.id, title: found.title } : undefined;
}
