// Tags as GitLab's services change them (app/services/tags/{create,destroy}_service.rb, Gitaly's
// UserCreateTag and UserDeleteTag, Gitlab::UserAccess#can_create_tag?). Creating a tag writes its
// object first and returns a recipe that adds the ref, so a failed request leaves only an
// unreachable object behind.
import type { RepositoryObjects } from '../../git/objects.js';
import type { ApiError } from '../../core/errors.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import type { State } from '../world.js';
import { pdel, tget } from '../../store/table.js';
import { hasProjectRole, projectAccess } from '../../policy/access.js';
import { plain, type Change } from '../define.js';
import { recordPush } from '../repositories/index.js';
import {
  deleteTagRef, draftRefs, findTag, protectedTagEntries, setTagRef, tagEntries, writeAnnotatedTag, isValidBranchName, matchesRefPattern, refsOf, repoView, resolveCommit, type ProtectedTag, type Repository, type TagRef,
} from '../repositories/index.js';
import { tagNotRemoved, tagServiceFailed } from './errors.js';

/** Every protected-tag rule that applies to a tag name: its own and the matching wildcards. */
export function protectedTagRules(refs: Repository, name: string): ProtectedTag[] {
  return [...protectedTagEntries(refs)]
    .filter(([pattern]) => matchesRefPattern(pattern, name))
    .map(([, rule]) => rule);
}

export const isProtectedTag = (refs: Repository, name: string) => protectedTagRules(refs, name).length > 0;

/** ProjectPolicy `admin_tag`: developers and above, while the repository is enabled. */
export function canAdminTags(state: State, user: User | null, project: Project, now: number): boolean {
  return !project.archived && project.features.repository !== 'disabled' && hasProjectRole(state, user, project, ACCESS.developer, now);
}

/** Gitlab::UserAccess#can_create_tag?: a protected tag needs a rule that lets the user in. */
export function canCreateTag(state: State, user: User | null, project: Project, name: string, now: number): boolean {
  if (!canAdminTags(state, user, project, now)) return false;
  const rules = protectedTagRules(refsOf(state, project.id), name);
  if (rules.length === 0) return true;
  const access = projectAccess(state, user, project, now);
  return rules.some((r) => r.createAccessLevel > 0 && access >= r.createAccessLevel);
}

/** `delete_tag`: developers delete tags, only maintainers delete protected ones. */
export function canDeleteTag(state: State, user: User | null, project: Project, name: string, now: number): boolean {
  if (!canAdminTags(state, user, project, now)) return false;
  return !isProtectedTag(refsOf(state, project.id), name) || hasProjectRole(state, user, project, ACCESS.maintainer, now);
}

export const PROTECTED_TAG_DENIED = 'You are not allowed to create this tag as it is protected.';

/**
 * Tags::CreateService#execute: `target` is any revision (a tag is peeled to its commit); a
 * non-blank `message` makes the tag annotated. The caller checks `canCreateTag` first, since
 * GitLab's API does so before the service runs.
 */
export async function createTag(
  repo: RepositoryObjects,
  state: State,
  project: Project,
  user: User,
  name: string,
  target: string,
  message: string | null | undefined,
  now: number,
  fail: (message: string) => ApiError = tagServiceFailed,
): Promise<Change<TagRef>> {
  if (target.trim() === '') throw fail('Target is empty');
  if (!isValidBranchName(name)) throw fail('Tag name invalid');
  const view = repoView(state, project);
  if (findTag(view.refs, name)) throw fail(`Tag ${name} already exists`);
  if (!canCreateTag(state, user, project, name, now)) throw fail(PROTECTED_TAG_DENIED);
  const commit = await resolveCommit(repo, view, target);
  if (!commit) throw fail(`Target ${target} is invalid`);
  const text = message?.trim() ?? '';
  const tag: TagRef = text === '' ? { target: commit, commit, message: null } : { target: await writeAnnotatedTag(repo, name, commit, text, user, now), commit, message: text };
  return (draft) => {
    const refs = draftRefs(draft, project.id);
    if (findTag(refs, name)) throw fail(`Tag ${name} already exists`);
    setTagRef(refs, name, tag);
    recordPush(draft, { projectId: project.id, refType: 'tag', ref: name, before: null, after: tag.target });
    tget(draft.projects, project.id)!.lastActivityAt = now;
    return tag;
  };
}

/** Tags::DestroyService: the tag goes, and the release made from it with it; returns the tag that went. */
export function deleteTag(state: State, project: Project, name: string, now: number): Change<TagRef> {
  const expected = findTag(refsOf(state, project.id), name)?.target;
  return (draft) => {
    const refs = draftRefs(draft, project.id);
    const tag = findTag(refs, name);
    if (!tag || tag.target !== expected) throw tagNotRemoved();
    const gone = plain(tag);
    deleteTagRef(refs, name);
    recordPush(draft, { projectId: project.id, refType: 'tag', ref: name, before: gone.target, after: null });
    pdel(draft.releases, project.id, name); // the tag's release goes with it
    tget(draft.projects, project.id)!.lastActivityAt = now;
    return gone;
  };
}

/** git's `versioncmp` for `version:refname`: digit runs compare as numbers, the rest byte by byte. */
export function compareVersions(a: string, b: string): number {
  const runs = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const x = runs(a);
  const y = runs(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (p === q) continue;
    if (/^\d/.test(p) && /^\d/.test(q)) {
      const u = p.replace(/^0+(?=\d)/, '');
      const v = q.replace(/^0+(?=\d)/, '');
      if (u.length !== v.length) return u.length - v.length;
      if (u !== v) return u < v ? -1 : 1;
      return q.length - p.length;
    }
    return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** GitRefsFinder#by_search as the API documents it: `^term` begins, `term$` ends, else contains; any case. */
export function filterTagNames(names: readonly string[], search: string): string[] {
  const s = search.toLowerCase();
  const starts = s.startsWith('^');
  const ends = s.endsWith('$') && s.length > (starts ? 1 : 0);
  const term = s.slice(starts ? 1 : 0, ends ? -1 : undefined);
  const matches = names.filter((name) => {
    const n = name.toLowerCase();
    if (starts && ends) return n === term;
    if (starts) return n.startsWith(term);
    if (ends) return n.endsWith(term);
    return n.includes(term);
  });
  if (starts || ends) return matches;
  // Without an anchor, an exact match (any case) comes first.
  const exact = matches.findIndex((n) => n.toLowerCase() === s);
  if (exact > 0) matches.unshift(...matches.splice(exact, 1));
  return matches;
}

export type TagOrder = 'name' | 'updated' | 'version';

/**
 * Gitaly's FindAllTags order: `name` is the refname, `updated` git's `creatordate` (the tagger
 * date of an annotated tag, else the commit date), `version` git's version sort; ties keep
 * refname order whichever the direction.
 */
export async function sortedTagNames(repo: RepositoryObjects, refs: Repository, order: TagOrder, sort: 'asc' | 'desc'): Promise<string[]> {
  const tags = new Map(tagEntries(refs));
  const names = [...tags.keys()].sort(byName);
  const dir = sort === 'asc' ? 1 : -1;
  if (order === 'name') return sort === 'asc' ? names : names.reverse();
  if (order === 'version') return names.sort((a, b) => compareVersions(a, b) * dir || byName(a, b));
  const when = new Map<string, number>();
  for (const n of names) {
    const t = tags.get(n)!;
    when.set(n, t.target === t.commit ? (await repo.readCommit(t.commit)).committer.timestamp : ((await repo.readTag(t.target)).tagger?.timestamp ?? 0));
  }
  return names.sort((a, b) => (when.get(a)! - when.get(b)!) * dir || byName(a, b));
}
