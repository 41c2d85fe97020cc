// The issues a text references (Gitlab::ClosingIssueExtractor and Mentionable): what a merge
// request closes (`Closes #n`) or mentions, kept per issue for `closed_by`,
// `related_merge_requests` and `merge_requests_count`; and the `mentioned in` note an issue
// gets from an issue or merge request that names it.
import type { Draft } from 'immer';
import { projectByIdOrPath } from '../../policy/paths.js';
import type { Project } from '../../store/state.js';
import { pdel, pget, pset, tget, tset, type Table } from '../../store/table.js';
import { systemNote } from '../issuables/index.js';
import { projectPaths } from '../projects/index.js';
import type { State } from '../world.js';
import type { IssueLocation } from './records.js';
import { issueByIid } from './store.js';

const KEYWORD = String.raw`\b(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)|[Ii]mplement(?:s|ed|ing)?)`;
const REF = String.raw`(?:https?:\/\/[^\s#]+?\/-\/issues\/\d+|[\w.\/-]*#\d+)`;
const CLOSING = new RegExp(`${KEYWORD}:? +((?:(?:issues? +)?${REF}(?: *,? +and +| *,? *)?)+)`, 'g');

const isPathChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 47 || c === 45; // [\w./-]
const isDigit = (c: number) => c >= 48 && c <= 57;
const ISSUES = '/-/issues/';

/**
 * The matches of REF in a text, left to right, as `text.matchAll(new RegExp(REF, 'g'))` finds
 * them, in one pass: the regex retries from every position of a long run of path characters
 * that no `#n` ends (quadratic), this looks each position's answer up in tables built backwards.
 */
export function scanIssueRefs(text: string): string[] {
  const n = text.length;
  // runEnd[i]: where the run of path characters from i ends; stop[i]: the next blank or `#`;
  // issuesAt[i]: the next `/-/issues/<digit>` (n + 1 when none).
  const runEnd = new Int32Array(n + 1);
  const stop = new Int32Array(n + 1);
  const issuesAt = new Int32Array(n + 2);
  runEnd[n] = n;
  stop[n] = n;
  issuesAt[n] = n + 1;
  issuesAt[n + 1] = n + 1;
  for (let i = n - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    runEnd[i] = isPathChar(c) ? runEnd[i + 1]! : i;
    stop[i] = c === 35 || /\s/.test(text[i]!) ? i : stop[i + 1]!;
    issuesAt[i] = c === 47 && text.startsWith(ISSUES, i) && isDigit(text.charCodeAt(i + ISSUES.length)) ? i : issuesAt[i + 1]!;
  }
  const digitsEnd = (from: number) => {
    let j = from;
    while (j < n && isDigit(text.charCodeAt(j))) j++;
    return j;
  };
  const refs: string[] = [];
  let i = 0;
  while (i < n) {
    let end = -1;
    // https?:\/\/[^\s#]+?\/-\/issues\/\d+ : the first `/-/issues/n` after at least one character, before any blank or `#`.
    const scheme = text.startsWith('http://', i) ? 7 : text.startsWith('https://', i) ? 8 : 0;
    if (scheme) {
      const from = i + scheme;
      const at = from < n ? issuesAt[from + 1]! : n + 1;
      if (at <= n && stop[from]! >= at) end = digitsEnd(at + ISSUES.length);
    }
    // [\w.\/-]*#\d+ : the run from here, then `#` and digits.
    if (end < 0) {
      const r = runEnd[i]!;
      if (text.charCodeAt(r) === 35 && isDigit(text.charCodeAt(r + 1))) end = digitsEnd(r + 1);
    }
    if (end < 0) {
      i++;
      continue;
    }
    refs.push(text.slice(i, end));
    i = end;
  }
  return refs;
}

export interface IssueRef {
  projectId: number;
  iid: number;
}

/** An issue reference (`#3`, `app#3`, `group/app#3`, an issue URL) from a project, resolved. */
function resolveRef(state: State, from: Project, ref: string): IssueRef | null {
  let path: string;
  let iid: number;
  // An issue URL (a match of REF that starts with its scheme ends with `/-/issues/<iid>`).
  if (/^https?:\/\//.test(ref)) {
    const issues = ref.lastIndexOf(ISSUES);
    let u: URL;
    try {
      u = new URL(ref);
    } catch {
      return null;
    }
    path = u.pathname.replace(/^\//, '');
    path = path.slice(0, Math.max(0, path.lastIndexOf(ISSUES)));
    iid = Number(ref.slice(issues + ISSUES.length));
  } else {
    const at = ref.lastIndexOf('#');
    path = ref.slice(0, at);
    iid = Number(ref.slice(at + 1));
  }
  let project: Project | undefined = from;
  if (path !== '') {
    const { ns } = projectPaths(state, from);
    project = projectByIdOrPath(state, path.includes('/') ? path : `${ns.fullPath}/${path}`);
  }
  return project ? { projectId: project.id, iid } : null;
}

/** Gitlab::ClosingIssueExtractor over a text, and every other issue it mentions. */
export function issueReferences(state: State, from: Project, text: string): { closes: IssueRef[]; mentions: IssueRef[] } {
  const closes: IssueRef[] = [];
  const mentions: IssueRef[] = [];
  const key = (r: IssueRef) => `${r.projectId}#${r.iid}`;
  const seen = new Set<string>();
  for (const m of text.matchAll(CLOSING)) {
    for (const r of scanIssueRefs(m[1]!)) {
      const ref = resolveRef(state, from, r);
      if (ref && !seen.has(key(ref))) {
        seen.add(key(ref));
        closes.push(ref);
      }
    }
  }
  for (const r of scanIssueRefs(text)) {
    const ref = resolveRef(state, from, r);
    if (ref && !seen.has(key(ref))) {
      seen.add(key(ref));
      mentions.push(ref);
    }
  }
  return { closes, mentions };
}

/** Where a merge request that names an issue is, and whether it closes the issue on merge. */
export type NamingMergeRequest = IssueLocation & { closes: boolean };

/** The merge requests that name the issue, by merge request id. */
export function namingMergeRequests(state: State, issueId: number): Table<NamingMergeRequest> | undefined {
  return tget(state.closingMergeRequests, issueId);
}

export function namingMergeRequest(state: State, issueId: number, mergeRequestId: number): NamingMergeRequest | undefined {
  return pget(state.closingMergeRequests, issueId, mergeRequestId);
}

/** Records that a merge request names the issue (or, with null, that it no longer does). */
export function setNamingMergeRequest(draft: Draft<State>, issueId: number, mergeRequestId: number, at: NamingMergeRequest | null): void {
  if (at) pset(draft.closingMergeRequests, issueId, mergeRequestId, at);
  else pdel(draft.closingMergeRequests, issueId, mergeRequestId);
}

/** Project#to_reference_base from another project: its path in the same namespace, else its full path. */
export function projectRefFrom(state: State, fromProjectId: number, projectId: number): string {
  if (fromProjectId === projectId) return '';
  const p = tget(state.projects, projectId);
  const from = tget(state.projects, fromProjectId);
  if (!p) return '';
  if (from && from.namespaceId === p.namespaceId) return p.path;
  return `${tget(state.namespaces, p.namespaceId)?.fullPath ?? ''}/${p.path}`;
}

/**
 * Mentionable#create_cross_references!: each issue a title or description names gets
 * `mentioned in issue #2` / `mentioned in merge request !1` (the mentioner as seen from it),
 * once per mentioner.
 */
export function crossReference(draft: Draft<State>, mentioner: { type: 'Issue' | 'MergeRequest'; id: number; iid: number; projectId: number }, text: string, authorId: number, now: number): void {
  const from = tget(draft.projects, mentioner.projectId);
  if (!from || !text.includes('#')) return;
  const { closes, mentions } = issueReferences(draft as State, from, text);
  for (const r of [...closes, ...mentions]) {
    const issue = issueByIid(draft as State, r.projectId, r.iid);
    if (!issue || (mentioner.type === 'Issue' && issue.id === mentioner.id)) continue;
    const key = `${issue.id}|${mentioner.type}:${mentioner.id}`;
    if (tget(draft.crossReferences, key)) continue;
    tset(draft.crossReferences, key, true);
    const [noun, sigil] = mentioner.type === 'Issue' ? ['issue', '#'] : ['merge request', '!'];
    systemNote(draft, 'Issue', issue, authorId, `mentioned in ${noun} ${projectRefFrom(draft as State, issue.projectId, mentioner.projectId)}${sigil}${mentioner.iid}`, now,
      { type: mentioner.type, projectId: mentioner.projectId, iid: mentioner.iid });
  }
}
