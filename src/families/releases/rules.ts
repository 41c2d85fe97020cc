// Releases as GitLab's services change them (app/services/releases/{base,create,update,destroy}_service.rb,
// ee/app/services/ee/releases/base_service.rb, app/models/release.rb, app/models/releases/link.rb,
// app/services/releases/links/*, app/policies/release_policy.rb, app/finders/releases_finder.rb,
// app/models/releases/evidence.rb). Errors are GitLab's service messages; every change is a recipe,
// so a failed request leaves the world as it was (GitLab would keep a tag it created first).
import type { Draft } from 'immer';
import type { RepositoryObjects } from '../../git/objects.js';
import { sha256Hex, utf8 } from '../../git/bytes.js';
import { forbidden } from '../../core/errors.js';
import { ACCESS, sequences, type Namespace, type Project, type Tier, type User } from '../../store/state.js';
import { pdel, pget, plist, pset } from '../../store/table.js';
import type { Release, ReleaseEvidence, ReleaseLink, ReleaseLinkType } from './records.js';
import type { State } from '../world.js';
import { tget, tvalues } from '../../store/table.js';
import { canReadProject, canUseFeature, hasProjectRole, isWithin } from '../../policy/access.js';
import { findTag, refsOf, type TagRef } from '../repositories/index.js';
import { defineTask, plain, schedule, type Change } from '../define.js';
import { emit } from '../stream.js';
import { findMilestone, projectGroup, projectMilestoneScope, type Milestone } from '../milestones/index.js';
import { canCreateTag, createTag } from '../tags/index.js';
import {
  linkInvalid, linkTypeInvalid, milestoneIdsNotFound, milestonesNotFound, nothingToUpdate, refNotSpecified, releaseExists, releaseInvalid, tagMissing,
  tagProtected,
} from './errors.js';

export const ids = sequences(['release', 'release_link', 'release_evidence']);

export const ARCHIVE_FORMATS = ['zip', 'tar.gz', 'tar.bz2', 'tar'] as const;
export const LINK_TYPES: readonly ReleaseLinkType[] = ['other', 'runbook', 'image', 'package'];

// ---------------------------------------------------------------- who may do what

/** ProjectPolicy `read_release`: readers of the project, while the releases feature is open to them. */
export function canReadReleases(state: State, user: User | null, project: Project, now: number): boolean {
  return canUseFeature(state, user, project, 'releases', now);
}

/** ProjectPolicy `create_release`: developers, in a project that is not archived. */
export function canCreateRelease(state: State, user: User | null, project: Project, now: number): boolean {
  return !project.archived && hasProjectRole(state, user, project, ACCESS.developer, now) && canReadReleases(state, user, project, now);
}

/**
 * ReleasePolicy: `create_release`, `update_release` and `destroy_release` on a release also need
 * the right to create its tag (a protected tag keeps developers out).
 */
export function canManageRelease(state: State, user: User | null, project: Project, tagName: string, now: number): boolean {
  return canCreateRelease(state, user, project, now) && canCreateTag(state, user, project, tagName, now);
}

// ---------------------------------------------------------------- finding and ordering

export type ReleaseOrder = 'released_at' | 'created_at';
export type SortDirection = 'asc' | 'desc';

/** Release.sort_by_attribute; equal times fall back to the id, in the same direction. */
export function sortReleases(list: readonly Release[], orderBy: ReleaseOrder = 'released_at', sort: SortDirection = 'desc'): Release[] {
  const key = orderBy === 'created_at' ? (r: Release) => r.createdAt : (r: Release) => r.releasedAt;
  const dir = sort === 'asc' ? 1 : -1;
  return [...list].sort((a, b) => (key(a) - key(b) || a.id - b.id) * dir);
}

/** ReleasesFinder: the project's tagged releases, `updated_before`/`updated_after` inclusive, in order. */
export function findReleases(
  state: State,
  project: Project,
  f: { orderBy?: ReleaseOrder; sort?: SortDirection; updatedBefore?: number; updatedAfter?: number } = {},
): Release[] {
  const list = plist(state.releases, project.id).filter(
    (r) => r.tagName !== '' && (f.updatedBefore === undefined || r.updatedAt <= f.updatedBefore) && (f.updatedAfter === undefined || r.updatedAt >= f.updatedAfter),
  );
  return sortReleases(list, f.orderBy, f.sort);
}

/** The target of `permalink/latest`: the first by `released_at` descending (an upcoming release counts). */
export function latestRelease(state: State, project: Project): Release | undefined {
  return findReleases(state, project)[0];
}

export function findRelease(state: State, project: Project, tagName: string): Release | undefined {
  return pget(state.releases, project.id, tagName);
}

/** Releases::GroupReleasesFinder: releases of the projects in the group and its subgroups that the caller may read. */
export function groupReleases(state: State, user: User | null, group: Namespace, sort: SortDirection, now: number): { project: Project; release: Release }[] {
  const rows: { project: Project; release: Release }[] = [];
  for (const p of tvalues(state.projects)) {
    if (p.pendingDelete || !isWithin(state, p.namespaceId, group.id)) continue;
    if (!canReadProject(state, user, p, now) || !canReadReleases(state, user, p, now)) continue;
    for (const r of plist(state.releases, p.id)) if (r.tagName !== '') rows.push({ project: p, release: r });
  }
  const dir = sort === 'asc' ? 1 : -1;
  return rows.sort((a, b) => (a.release.releasedAt - b.release.releasedAt || a.release.id - b.release.id) * dir);
}

/** Release#upcoming_release?, to the second. */
export const isUpcoming = (r: Release, now: number) => Math.floor(r.releasedAt / 1000) > Math.floor(now / 1000);
/** Release#historical_release?: released before it was created. */
export const isHistorical = (r: Release) => Math.floor(r.releasedAt / 1000) < Math.floor(r.createdAt / 1000);

/** The milestones of a release that still exist, wherever they live. */
export function releaseMilestones(state: State, project: Project, r: Release): Milestone[] {
  const group = projectGroup(state, project);
  const out: Milestone[] = [];
  for (const id of r.milestoneIds) {
    const m = findMilestone(state, { projectId: project.id }, id) ?? (group ? findMilestone(state, { groupId: group.id }, id) : undefined) ?? findAnyMilestone(state, id);
    if (m) out.push(m);
  }
  return out;
}

function findAnyMilestone(state: State, id: number): Milestone | undefined {
  for (const ns of tvalues(state.namespaces)) {
    const m = findMilestone(state, { groupId: ns.id }, id);
    if (m) return m;
  }
  return undefined;
}

// ---------------------------------------------------------------- milestones of a release

/**
 * Releases::BaseService#milestones with EE's project_group_id: titles (or ids) looked up among
 * the project's milestones and its own group's, never an ancestor's. Unknown ones are 400.
 */
export function resolveMilestones(state: State, project: Project, titles: readonly string[] | undefined, ids: readonly number[] | undefined): Milestone[] {
  const scope = projectMilestoneScope(state, project);
  const found = (titles?.length || ids?.length)
    ? scope.filter((m) => (titles?.length ? titles.includes(m.title) : false) || (ids?.length ? ids.includes(m.id) : false))
    : [];
  if (titles !== undefined) {
    const missing = titles.filter((t) => !found.some((m) => m.title === t));
    if (missing.length) throw milestonesNotFound(missing);
  }
  if (ids !== undefined) {
    const missing = ids.filter((id) => !found.some((m) => m.id === id));
    if (missing.length) throw milestoneIdsNotFound(missing);
  }
  return found;
}

const GROUP_MILESTONE_UNLICENSED = 'None of the group milestones have the same project as the release';

/** EE::MilestoneRelease: a group milestone needs the `group_milestone_project_releases` feature (Premium). */
function groupMilestonesAllowed(tier: Tier, milestones: readonly Milestone[]): boolean {
  return tier !== 'free' || milestones.every((m) => m.groupId === null);
}

// ---------------------------------------------------------------- asset links

export interface LinkInput {
  name?: string;
  url?: string;
  /** `direct_asset_path`, else the deprecated `filepath`; undefined when neither was sent. */
  filepath?: string | null;
  linkType?: string;
}

const FILEPATH = /^\/[^/](?!.*\/\/.*)[-.\w/]+[\da-zA-Z]+$/;
const URL_SCHEMES = ['http', 'https', 'ftp'];

/** AddressableUrlValidator with `schemes: http https ftp` (no address is blocked by default). */
function urlProblem(url: string): string | null {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (!scheme || !URL_SCHEMES.includes(scheme)) return 'is blocked: Only allowed schemes are http, https, ftp';
  try {
    const u = new URL(url);
    if (u.hostname === '') return 'is blocked: URI is invalid';
  } catch {
    return 'is blocked: URI is invalid';
  }
  return null;
}

export interface LinkFields {
  name: string;
  url: string;
  filepath: string | null;
}

/** Releases::Link validations, as `[attribute, message]` in the order Rails runs them. */
function linkErrors(link: LinkFields, siblings: readonly LinkFields[]): [string, string][] {
  const out: [string, string][] = [];
  if (link.url.trim() === '') out.push(['Url', "can't be blank"], ['Url', 'must be a valid URL']);
  else {
    const problem = urlProblem(link.url);
    if (problem) out.push(['Url', problem]);
  }
  if (link.url !== '' && siblings.some((s) => s.url === link.url)) out.push(['Url', 'has already been taken']);
  if (link.name.trim() === '') out.push(['Name', "can't be blank"]);
  if (siblings.some((s) => s.name === link.name)) out.push(['Name', 'has already been taken']);
  if (link.filepath && siblings.some((s) => s.filepath === link.filepath)) out.push(['Filepath', 'has already been taken']);
  if (link.filepath !== null) {
    if (link.filepath.length > 128) out.push(['Filepath', 'is too long (maximum is 128 characters)']);
    else if (!FILEPATH.test(link.filepath)) out.push(['Filepath', 'is in an invalid format']);
  }
  return out;
}

export const isLinkType = (t: string): t is ReleaseLinkType => (LINK_TYPES as readonly string[]).includes(t);

/** Releases::Link's `link_type` enum: `other` when left out. */
export function checkLinkType(t: string | undefined): ReleaseLinkType {
  if (t === undefined) return 'other';
  if (!isLinkType(t)) throw linkTypeInvalid(t);
  return t;
}

/** An object's address as Ruby prints it (`#<Release:0x000...>`), stable per release. */
const rubyObject = (cls: string, id: number) => `#<${cls}:0x${(0x7f3a00000000 + id * 0x28).toString(16).padStart(16, '0')}>`;

/** Each new link's own validation errors, as a release reports them (`Links url can't be blank`). */
export function newLinkErrors(links: readonly LinkFields[]): string[] {
  return links.flatMap((l) => linkErrors(l, []).map(([attr, m]) => `Links ${attr.toLowerCase()} ${m}`));
}

/** NestedAttributesDuplicatesValidator for `links` (name, url, filepath) of a release being built. */
export function duplicateLinkErrors(links: readonly LinkFields[], releaseId: number): string[] {
  const out: string[] = [];
  for (const attr of ['name', 'url', 'filepath'] as const) {
    const seen = new Map<string | null, number>();
    for (const l of links) seen.set(l[attr], (seen.get(l[attr]) ?? 0) + 1);
    const dups = [...seen].filter(([, n]) => n > 1).map(([v]) => v);
    // Ruby's `duplicates.any?` is false for `[nil]`: links without a path never collide.
    if (dups.some((v) => v !== null)) out.push(`Links have duplicate values (${dups.map((v) => v ?? '').join(', ')}) for ${rubyObject('Release', releaseId)} scope`);
  }
  return out;
}

// ---------------------------------------------------------------- create, update, delete

export interface ReleaseInput {
  tagName: string;
  name?: string;
  description?: string;
  ref?: string;
  tagMessage?: string;
  releasedAt?: number;
  milestones?: string[];
  milestoneIds?: number[];
  links?: LinkInput[];
}

function newLink(draft: Draft<State>, l: LinkFields & { linkType: ReleaseLinkType }, now: number): ReleaseLink {
  return { id: ids.next(draft, 'release_link'), name: l.name, url: l.url.trim(), filepath: l.filepath, linkType: l.linkType, createdAt: now };
}

/**
 * Releases::CreateService#execute after the API's `create_release` check: the protected tag,
 * an existing release (409), milestones (400), the tag (422 without `ref`, else created by
 * Tags::CreateService, whose errors are 400), then the release's own validations (400).
 */
export async function createRelease(
  repo: RepositoryObjects,
  state: State,
  project: Project,
  user: User,
  input: ReleaseInput,
  now: number,
): Promise<Change<{ release: Release; evidenceSha: string | null }>> {
  const { tagName } = input;
  if (!canCreateTag(state, user, project, tagName, now)) throw tagProtected();
  if (findRelease(state, project, tagName)) throw releaseExists();
  const milestones = resolveMilestones(state, project, input.milestones, input.milestoneIds);
  const existing: TagRef | undefined = findTag(refsOf(state, project.id), tagName);
  let addTag: Change<TagRef> | null = null;
  if (!existing) {
    if (input.ref === undefined) throw refNotSpecified();
    addTag = await createTag(repo, state, project, user, tagName, input.ref, input.tagMessage, now);
  }
  const links = (input.links ?? []).map((l) => ({ name: l.name ?? '', url: (l.url ?? '').trim(), filepath: l.filepath ?? null, linkType: checkLinkType(l.linkType) }));
  // Release#save! raises with every message, in the order the model declares its validations.
  const licensed = groupMilestonesAllowed(state.instance.tier, milestones);
  const linkMessages = newLinkErrors(links);
  const messages = [
    ...(licensed ? [] : ['Milestone releases is invalid']),
    ...linkMessages,
    ...(licensed ? [] : [`Milestone releases ${GROUP_MILESTONE_UNLICENSED}`]),
    // NestedAttributesDuplicatesValidator stays quiet once a link has errors of its own.
    ...(linkMessages.length ? [] : duplicateLinkErrors(links, ids.peek(state, 'release'))),
  ];
  if (messages.length) throw releaseInvalid(messages);
  const id = ids.peek(state, 'release');
  const release: Release = {
    id,
    tagName,
    name: input.name ?? tagName,
    description: input.description ?? '',
    createdAt: now,
    updatedAt: now,
    releasedAt: input.releasedAt ?? now,
    authorId: user.id,
    sha: existing?.commit ?? null,
    milestoneIds: milestones.map((m) => m.id),
    links: [],
    evidences: [],
  };
  // Releases::CreateService#create_evidence!: for a release neither upcoming nor historical.
  const evidence = !isUpcoming(release, now) && !isHistorical(release) ? await collectEvidence(state, project, release) : null;
  return (draft) => {
    const tag = addTag ? addTag(draft) : existing!;
    if (ids.next(draft, 'release') !== id) throw new Error('release ids moved during the request');
    const made: Release = { ...release, sha: tag.commit, links: links.map((l) => newLink(draft, l, now)) };
    pset((draft as State).releases, project.id, tagName, made);
    tget(draft.projects, project.id)!.updatedAt = now;
    const added = evidence ? addEvidence(draft, project.id, tagName, evidence.summary, evidence.sha, now) : null;
    emit(draft, { kind: 'release.created', projectId: project.id, tag: tagName });
    return { release: plain(pget((draft as State).releases, project.id, tagName)!), evidenceSha: added?.sha ?? null };
  };
}

export interface ReleaseChanges {
  name?: string;
  description?: string;
  releasedAt?: number;
  milestones?: string[];
  milestoneIds?: number[];
}

/**
 * PUT: `update_release` on the release (403, also when there is none), then
 * Releases::UpdateService: the tag (404), something to change (400), milestones (400).
 */
export function updateRelease(state: State, project: Project, user: User | null, tagName: string, changes: ReleaseChanges, now: number): Change<Release> {
  const release = findRelease(state, project, tagName);
  if (!release || !canManageRelease(state, user, project, tagName, now)) throw forbidden();
  if (!findTag(refsOf(state, project.id), tagName)) throw tagMissing();
  if (Object.values(changes).every((v) => v === undefined)) throw nothingToUpdate();
  const milestonesGiven = changes.milestones !== undefined || changes.milestoneIds !== undefined;
  const milestones = milestonesGiven ? resolveMilestones(state, project, changes.milestones, changes.milestoneIds) : null;
  if (milestones && !groupMilestonesAllowed(state.instance.tier, milestones)) throw releaseInvalid([GROUP_MILESTONE_UNLICENSED]);
  return (draft) => {
    const r = pget((draft as State).releases, project.id, tagName);
    if (!r) throw forbidden();
    const before = JSON.stringify([r.name, r.description, r.releasedAt, r.milestoneIds]);
    if (changes.name !== undefined) r.name = changes.name;
    if (changes.description !== undefined) r.description = changes.description;
    if (changes.releasedAt !== undefined) r.releasedAt = changes.releasedAt;
    if (milestones) r.milestoneIds = milestones.map((m) => m.id);
    if (JSON.stringify([r.name, r.description, r.releasedAt, r.milestoneIds]) !== before) r.updatedAt = now;
    tget(draft.projects, project.id)!.updatedAt = now;
    emit(draft, { kind: 'release.updated', projectId: project.id, tag: tagName });
    return plain(r);
  };
}

/** DELETE: `destroy_release` on the release (403), then Releases::DestroyService (404 without the tag). The tag stays. */
export function deleteRelease(state: State, project: Project, user: User | null, tagName: string, now: number): Change<Release> {
  const release = findRelease(state, project, tagName);
  if (!release || !canManageRelease(state, user, project, tagName, now)) throw forbidden();
  if (!findTag(refsOf(state, project.id), tagName)) throw tagMissing();
  return (draft) => {
    const gone = plain(pget((draft as State).releases, project.id, tagName)!);
    pdel((draft as State).releases, project.id, tagName);
    tget(draft.projects, project.id)!.updatedAt = now;
    emit(draft, { kind: 'release.deleted', projectId: project.id, tag: tagName, name: gone.name });
    return gone;
  };
}

// ---------------------------------------------------------------- links of an existing release

/** Releases::Link.sorted: newest first. */
export function sortedLinks(r: Release): ReleaseLink[] {
  return [...r.links].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
}

export function findLink(r: Release, id: number): ReleaseLink | undefined {
  return r.links.find((l) => l.id === id);
}

function validLink(fields: LinkFields, siblings: readonly ReleaseLink[]): void {
  const errors = linkErrors(fields, siblings);
  if (errors.length) throw linkInvalid(errors.map(([a, m]) => `${a} ${m}`));
}

/** Releases::Links::CreateService: `create_release` on the release (403), then the link's validations (400, a list). */
export function createLink(state: State, project: Project, user: User | null, r: Release, input: LinkInput, now: number): Change<{ release: Release; link: ReleaseLink }> {
  if (!canManageRelease(state, user, project, r.tagName, now)) throw forbidden();
  const fields = { name: input.name ?? '', url: (input.url ?? '').trim(), filepath: input.filepath ?? null };
  validLink(fields, r.links);
  const linkType = checkLinkType(input.linkType);
  return (draft) => {
    const rel = pget((draft as State).releases, project.id, r.tagName)!;
    const link = newLink(draft, { ...fields, linkType }, now);
    rel.links.push(link);
    rel.updatedAt = now;
    tget(draft.projects, project.id)!.updatedAt = now;
    return { release: plain(rel), link };
  };
}

/** Releases::Links::UpdateService: `update_release` (403), then validations over the changed link (400). */
export function updateLink(state: State, project: Project, user: User | null, r: Release, link: ReleaseLink, input: LinkInput, now: number): Change<{ release: Release; link: ReleaseLink }> {
  if (!canManageRelease(state, user, project, r.tagName, now)) throw forbidden();
  const fields = {
    name: input.name ?? link.name,
    url: input.url !== undefined ? input.url.trim() : link.url,
    filepath: input.filepath !== undefined ? input.filepath : link.filepath,
  };
  validLink(fields, r.links.filter((l) => l.id !== link.id));
  const linkType = input.linkType !== undefined ? checkLinkType(input.linkType) : link.linkType;
  return (draft) => {
    const rel = pget((draft as State).releases, project.id, r.tagName)!;
    const l = rel.links.find((x) => x.id === link.id)!;
    Object.assign(l, fields, { linkType });
    rel.updatedAt = now;
    return { release: plain(rel), link: plain(l) };
  };
}

/** Releases::Links::DestroyService: returns the release as it is left and the link that went. */
export function deleteLink(state: State, project: Project, user: User | null, r: Release, link: ReleaseLink, now: number): Change<{ release: Release; link: ReleaseLink }> {
  if (!canManageRelease(state, user, project, r.tagName, now)) throw forbidden();
  return (draft) => {
    const rel = pget((draft as State).releases, project.id, r.tagName)!;
    const gone = plain(rel.links.find((l) => l.id === link.id)!);
    rel.links = rel.links.filter((l) => l.id !== link.id);
    rel.updatedAt = now;
    return { release: plain(rel), link: gone };
  };
}

// ---------------------------------------------------------------- evidence

/** Evidences::EvidenceEntity: the release, its project and milestones, as collected. */
export function evidenceSummary(state: State, project: Project, r: Release): Record<string, unknown> {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    release: {
      id: r.id,
      tag_name: r.tagName,
      name: r.name,
      description: r.description,
      created_at: iso(r.createdAt),
      project: { id: project.id, name: project.name, description: project.description, created_at: iso(project.createdAt) },
      milestones: releaseMilestones(state, project, r).map((m) => ({
        id: m.id, title: m.title, description: m.description, state: m.state, iid: m.iid, created_at: iso(m.createdAt), due_date: m.dueDate, issues: [],
      })),
      report_artifacts: [],
    },
  };
}

/** Evidence as Releases::CreateEvidenceWorker would collect it now: the summary and its SHA-256. */
export async function collectEvidence(state: State, project: Project, r: Release): Promise<{ summary: Record<string, unknown>; sha: string }> {
  const summary = evidenceSummary(state, project, r);
  return { summary, sha: await sha256Hex(utf8(JSON.stringify(summary))) };
}

/** Evidence rows are appended by this; `sha` is the SHA-256 (hex) of the summary's JSON. */
export function addEvidence(draft: Draft<State>, projectId: number, tagName: string, summary: unknown, sha: string, now: number): ReleaseEvidence | null {
  const r = pget((draft as State).releases, projectId, tagName);
  if (!r) return null;
  const evidence: ReleaseEvidence = { id: ids.next(draft, 'release_evidence'), sha, collectedAt: now, summary };
  r.evidences.push(evidence);
  return evidence;
}

/** Releases::CreateEvidenceWorker, run by the clock: the summary was taken when the work was asked for. */
export const COLLECT_EVIDENCE = defineTask<{ projectId: number; tagName: string; summary: unknown; sha: string }>(
  'release.evidence',
  (draft, p, ctx) => void addEvidence(draft, p.projectId, p.tagName, p.summary, p.sha, ctx.now),
);

/** Releases::CreateEvidenceWorker.perform_async: the summary is taken now, stored when the clock runs the work. */
export async function requestEvidence(state: State, project: Project, r: Release, now: number): Promise<Change<{ sha: string }>> {
  const { summary, sha } = await collectEvidence(state, project, r);
  return (draft) => {
    schedule(draft, COLLECT_EVIDENCE, now, { projectId: project.id, tagName: r.tagName, summary, sha });
    return { sha };
  };
}
