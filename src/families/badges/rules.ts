// Badges::CreateService, UpdateService and BuildService, Badge's URL validation, and the
// placeholders a project's badge URLs are rendered with (Badge::PLACEHOLDERS).
import { ancestry } from '../../policy/access.js';
import { sequences, type Namespace, type Project } from '../../store/state.js';
import { tdel, tget, tset, tvalues } from '../../store/table.js';
import { branchTip, refsOf } from '../repositories/index.js';
import { plain, type Change } from '../define.js';
import type { State } from '../world.js';
import { invalidBadge } from './errors.js';
import type { Badge } from './records.js';

const ids = sequences(['badge']);

export type Source = { kind: 'project'; project: Project } | { kind: 'group'; group: Namespace };

const ownerIdOf = (s: Source) => (s.kind === 'project' ? s.project.id : s.group.id);
const byCreation = (a: Badge, b: Badge) => a.createdAt - b.createdAt || a.id - b.id;

/** Project#badges: its own and those of its groups, up the hierarchy; Group#badges: its own. Oldest first. */
export function badgesOf(state: State, source: Source): Badge[] {
  const all = [...tvalues(state.badges)];
  if (source.kind === 'group') return all.filter((b) => b.kind === 'group' && b.ownerId === source.group.id).sort(byCreation);
  const groups = new Set(ancestry(state, source.project.namespaceId).filter((n) => n.kind === 'group').map((n) => n.id));
  return all.filter((b) => (b.kind === 'project' ? b.ownerId === source.project.id : groups.has(b.ownerId))).sort(byCreation);
}

export const findBadge = (state: State, source: Source, id: number): Badge | undefined => badgesOf(state, source).find((b) => b.id === id);

/** The placeholders GitLab fills in a project's badge URLs. */
const PLACEHOLDERS: Record<string, (state: State, project: Project, host: string) => string | null | undefined> = {
  project_path: (s, p) => fullPathOf(s, p),
  project_title: (_, p) => p.name,
  project_name: (_, p) => p.path,
  project_id: (_, p) => String(p.id),
  project_namespace: (s, p) => fullPathOf(s, p),
  group_name: (s, p) => {
    const ns = tget(s.namespaces, p.namespaceId);
    return ns && ns.kind === 'group' ? ns.fullPath : null;
  },
  gitlab_server: (_, __, host) => host,
  default_branch: (_, p) => p.defaultBranch,
  commit_sha: (s, p) => (p.defaultBranch ? branchTip(refsOf(s, p.id), p.defaultBranch) : undefined),
};
const PLACEHOLDER = new RegExp(`%(\\{|25%7B)(${Object.keys(PLACEHOLDERS).join('|')})(\\}|%7D)`, 'g');

function fullPathOf(state: State, project: Project): string {
  return `${tget(state.namespaces, project.namespaceId)!.fullPath}/${project.path}`;
}

/** Gitlab::StringPlaceholderReplacer: each known placeholder its value; one without a value stays as written. */
export function renderUrl(state: State, url: string, project: Project | undefined, host: string): string {
  if (!project) return url;
  return url.replace(PLACEHOLDER, (whole, _open: string, name: string) => PLACEHOLDERS[name]!(state, project, host) ?? whole);
}

/** UrlPlaceholderValidator: an http(s) URL once its placeholders are filled. */
function urlErrors(url: string): string[] {
  const filled = url.replace(PLACEHOLDER, 'x');
  let parsed: URL;
  try {
    parsed = new URL(filled);
  } catch {
    return ['must be a valid URL'];
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return ['is blocked: Only allowed schemes are http, https'];
  return [];
}

function validate(fields: { linkUrl: string; imageUrl: string }): void {
  const errors: Record<string, string[]> = {};
  const link = urlErrors(fields.linkUrl);
  const image = urlErrors(fields.imageUrl);
  if (link.length) errors.link_url = link;
  if (image.length) errors.image_url = image;
  if (Object.keys(errors).length) throw invalidBadge(errors);
}

export interface BadgeInput {
  link_url?: string;
  image_url?: string;
  name?: string;
}

/** Badges::BuildService: a badge not saved, for the render preview. */
export function buildBadge(source: Source, input: { link_url: string; image_url: string; name?: string }, now: number): Badge {
  const badge: Badge = { id: 0, kind: source.kind, ownerId: ownerIdOf(source), name: input.name ?? null, linkUrl: input.link_url, imageUrl: input.image_url, createdAt: now };
  validate(badge);
  return badge;
}

export function createBadge(source: Source, input: { link_url: string; image_url: string; name?: string }, now: number): Change<Badge> {
  const built = buildBadge(source, input, now);
  return (draft) => {
    const made = { ...built, id: ids.next(draft, 'badge') };
    tset((draft as State).badges, made.id, made);
    return made;
  };
}

export function updateBadge(badge: Badge, input: BadgeInput): Change<Badge> {
  const next: Badge = { ...badge, linkUrl: input.link_url ?? badge.linkUrl, imageUrl: input.image_url ?? badge.imageUrl, name: input.name ?? badge.name };
  validate(next);
  return (draft) => {
    tset((draft as State).badges, badge.id, next);
    return plain(next);
  };
}

export const deleteBadge = (badge: Badge): Change => (draft) => void tdel((draft as State).badges, badge.id);

export function forgetOwner(draft: State, kind: Badge['kind'], id: number): void {
  for (const b of [...tvalues(draft.badges)]) if (b.kind === kind && b.ownerId === id) tdel(draft.badges, b.id);
}
