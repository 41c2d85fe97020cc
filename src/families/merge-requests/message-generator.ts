// The messages of a merge's commits (Gitlab::MergeRequests::MessageGenerator,
// MergeRequest#default_merge_commit_message and #default_squash_commit_message): the project's
// `merge_commit_template` and `squash_commit_template` with their placeholders filled, else
// GitLab's own message (the merge commit's branches, title, closed issues and reference; the
// squash's title).
import type { CommitData, RepositoryObjects } from '../../git/objects.js';
import { commitsBetween } from '../../git/merge-base.js';
import type { Project, User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { commitTitle } from '../commits/index.js';
import { issueReference } from '../issues/index.js';
import { projectPaths, projectWebUrl } from '../projects/index.js';
import { commitEmail } from '../users/index.js';
import type { State } from '../world.js';
import { approvalsOf } from './approvals.js';
import { visibleClosingIssues } from './closing.js';
import type { MergeRequest } from './records.js';
import { reviewedByUsers } from './reviewers.js';

/** What a message is made from: the merge request, its project and repository, and who merges it. */
export interface MessageSource {
  state: State;
  repo: RepositoryObjects;
  /** The target project, whose templates apply. */
  project: Project;
  mr: MergeRequest;
  /** MessageGenerator's current_user: who merges it (or, for the merge ref, its author or the user who set auto-merge). */
  user: User | null;
  /** The URL the web app lives at, for `%{url}`. */
  webBase: string;
  now: number;
}

/** MessageGenerator::PLACEHOLDERS, in GitLab's order. */
export const PLACEHOLDER_NAMES = [
  'source_branch', 'target_branch', 'title', 'issues', 'description', 'reference', 'local_reference', 'source_project_id',
  'first_commit', 'first_multiline_commit', 'url', 'reviewed_by', 'approved_by', 'merged_by', 'co_authored_by', 'all_commits',
] as const;
export type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];

const TOKENS = new RegExp(`%\\{(${PLACEHOLDER_NAMES.join('|')})\\}`, 'g');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** ActiveSupport's String#blank?: nothing, or only white space. */
export const isBlank = (s: string | null | undefined): boolean => s === null || s === undefined || /^\p{White_Space}*$/u.test(s);

/** Ruby's String#strip: ASCII white space (and trailing NULs) off both ends. */
const strip = (s: string) => s.replace(/^[\t\n\v\f\r ]+/, '').replace(/[\0\t\n\v\f\r ]+$/, '');

/** Array#to_sentence: `a`, `a and b`, `a, b, and c`. */
export function toSentence(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** The placeholders a template uses, each once, in order of first use. */
export function usedPlaceholders(template: string): PlaceholderName[] {
  return [...new Set([...template.matchAll(TOKENS)].map((m) => m[1] as PlaceholderName))];
}

/**
 * MessageGenerator#replace_placeholders: carriage returns dropped; a blank placeholder between a
 * blank line and a blank line or the end goes with the blank line before it, one alone on its
 * line goes with its line; then every placeholder is its value (nothing for none). Other
 * `%{...}` are left as they are.
 */
export function replacePlaceholders(template: string, values: Readonly<Partial<Record<string, string | null>>>): string {
  let message = template.replace(/\r/g, '');
  const used = usedPlaceholders(message);
  if (used.length === 0) return message;
  const empty = used.filter((name) => isBlank(values[name])).map((name) => escape(`%{${name}}`));
  if (empty.length > 0) {
    const any = `(?:${empty.join('|')})`;
    // Ruby's `\n\n(%{a}|...)(\n\n|\Z)` and `^(%{a}|...)\n`: `\Z` is the end or a last newline's start, `^` a line's start.
    message = message.replace(new RegExp(`\\n\\n${any}(\\n\\n|(?=\\n?$))`, 'g'), '$1');
    message = message.replace(new RegExp(`(?<![^\\n])${any}\\n`, 'g'), '');
  }
  return message.replace(TOKENS, (_token, name: string) => values[name] ?? '');
}

/** A project's template when it has one (`present?`: not blank). */
function templateOf(project: Project, key: 'merge_commit_template' | 'squash_commit_template'): string | null {
  const t = project.settings[key];
  return typeof t === 'string' && !isBlank(t) ? t : null;
}

/** Commit#full_title's length from which Commit#title is cut and the whole message is its description. */
const LONG_TITLE = 100;

/**
 * Commit#description?: a title too long to show whole, a blank message (its description is
 * `No commit message`), or something after the first line.
 */
function hasDescription(message: string): boolean {
  if (commitTitle(message).length >= LONG_TITLE || isBlank(message)) return true;
  const nl = message.indexOf('\n');
  return nl >= 0 && !isBlank(message.slice(nl + 1));
}

/** Commit#title: the first line, cut at a word to 81 characters with `…` when it is 100 or more. */
function shortTitle(message: string): string {
  const full = commitTitle(message);
  if (full.length < LONG_TITLE) return full;
  const at = full.lastIndexOf(' ', 80);
  return `${full.slice(0, at < 0 ? 80 : at)}…`;
}

/** MergeRequestDiff::COMMITS_SAFE_SIZE: how many of its newest commits `recent_commits` holds. */
const RECENT = 100;
const HUGE_MESSAGE = 100 * 1024;

/** The merge request's commits as its latest diff has them: its newest hundred, newest first, and its oldest. */
function commitsOf(src: MessageSource) {
  let loaded: Promise<{ recent: CommitData[]; first: CommitData | null }> | null = null;
  return () => (loaded ??= (async () => {
    const shas = await commitsBetween(src.repo, src.mr.baseSha, src.mr.sha);
    const recent = await Promise.all(shas.slice(-RECENT).reverse().map((sha) => src.repo.readCommit(sha)));
    const first = shas.length === 0 ? null : shas.length <= RECENT ? recent[recent.length - 1]! : await src.repo.readCommit(shas[0]!);
    return { recent, first };
  })());
}

const signature = (u: User | null | undefined) => `${u?.name ?? ''} <${u ? commitEmail(u) : ''}>`;

/** Each placeholder's value (PLACEHOLDERS' lambdas); null where GitLab's is nil. */
function placeholderValue(src: MessageSource, name: PlaceholderName, squash: boolean, commits: ReturnType<typeof commitsOf>): Promise<string | null> | string | null {
  const { state, project, mr } = src;
  switch (name) {
    case 'source_branch': return mr.sourceBranch;
    case 'target_branch': return mr.targetBranch;
    case 'title': return mr.title;
    case 'description': return mr.description;
    case 'issues': {
      // visible_closing_issues_for with no user: those the author may read.
      const issues = visibleClosingIssues(state, project, mr, tget(state.users, mr.authorId) ?? null, src.now);
      return issues.length === 0 ? null : `Closes ${toSentence(issues.map((i) => issueReference(state, project.id, i)))}`;
    }
    case 'reference': return `${projectPaths(state, project).fullPath}!${mr.iid}`;
    case 'local_reference': return `!${mr.iid}`;
    case 'source_project_id': return String(mr.projectId);
    case 'url': return `${projectWebUrl(state, project, src)}/-/merge_requests/${mr.iid}`;
    // reviewed_by_users: the authors of submitted reviews (a bulk publish of draft notes), whatever their reviewer state.
    case 'reviewed_by': return reviewedByUsers(state, mr).map((u) => `Reviewed-by: ${signature(u)}`).join('\n');
    case 'approved_by':
      return approvalsOf(state, mr).map((a) => tget(state.users, a.userId)).filter((u): u is User => !!u).map((u) => `Approved-by: ${signature(u)}`).join('\n');
    case 'merged_by': return signature(src.user);
    case 'first_commit': return commits().then(({ first }) => (first ? strip(first.message) : null));
    case 'first_multiline_commit':
      return commits().then(({ recent }) => {
        const found = recent.filter((c) => c.parents.length <= 1).reverse().find((c) => hasDescription(c.message));
        const text = found ? strip(found.message) : '';
        return isBlank(text) ? mr.title : text;
      });
    case 'co_authored_by':
      return commits().then(({ recent }) => {
        // `to_h` of the newest first: each address where it first comes, with the name of its oldest commit.
        const authors = new Map<string, string>();
        for (const c of recent) authors.set(c.author.email, c.author.name);
        const own = squash ? tget(state.users, mr.authorId) : src.user;
        if (own) authors.delete(commitEmail(own));
        return [...authors].map(([email, name]) => `Co-authored-by: ${name} <${email}>`).join('\n');
      });
    case 'all_commits':
      return commits().then(({ recent }) => recent.filter((c) => c.parents.length <= 1).map((c) => (Buffer.byteLength(c.message) > HUGE_MESSAGE
        ? `* ${shortTitle(c.message)}\n\n-- Skipped commit body exceeding 100KiB in size.`
        : `* ${strip(c.message)}`)).join('\n\n'));
  }
}

/** A template with the values of the placeholders it uses (only those are worked out). */
export async function renderTemplate(template: string, src: MessageSource, squash: boolean): Promise<string> {
  const commits = commitsOf(src);
  const values: Record<string, string | null> = {};
  for (const name of usedPlaceholders(template.replace(/\r/g, ''))) values[name] = await placeholderValue(src, name, squash, commits);
  return replacePlaceholders(template, values);
}

/**
 * MergeRequest#default_merge_commit_message: the project's merge commit template filled, else the
 * branches, the title, the issues it closes (those its author may read) and its full reference.
 */
export async function defaultMergeCommitMessage(src: MessageSource): Promise<string> {
  const template = templateOf(src.project, 'merge_commit_template');
  if (template !== null) return renderTemplate(template, src, false);
  const { state, project, mr } = src;
  const closing = visibleClosingIssues(state, project, mr, tget(state.users, mr.authorId) ?? null, src.now).map((i) => issueReference(state, project.id, i));
  return [
    `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'`, mr.title,
    ...(closing.length ? [`Closes ${toSentence(closing)}`] : []),
    `See merge request ${projectPaths(state, project).fullPath}!${mr.iid}`,
  ].join('\n\n');
}

/** MergeRequest#default_squash_commit_message: the squash commit template filled, unless that is blank; else the title. */
export async function defaultSquashCommitMessage(src: MessageSource): Promise<string> {
  const template = templateOf(src.project, 'squash_commit_template');
  const made = template === null ? null : await renderTemplate(template, src, true);
  return made === null || isBlank(made) ? src.mr.title : made;
}
