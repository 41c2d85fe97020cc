// Releases of a fixture, made once the repositories' refs are
// in the world, since a release names an existing tag. Seeding is data: no tag is created and
// no evidence collected; what GitLab would refuse (an unknown tag, milestone or user, bad links)
// throws an EmulatorError and seeds nothing.
import { EmulatorError } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import type { Project } from '../../store/state.js';
import type { State } from '../world.js';
import { pset, tget } from '../../store/table.js';
import { fixtureProjectPath, projectWhere, type SeedRun } from '../define.js';
import { findTag, refsOf } from '../repositories/index.js';
import type { Release } from './records.js';
import { projectMilestoneScope } from '../milestones/index.js';
import { checkLinkType, duplicateLinkErrors, findRelease, ids, isLinkType, newLinkErrors } from './rules.js';
import { findUserByUsername } from '../users/index.js';
import type { releaseSchema, releasesSchema } from './schema.js';

/**
 * A release of an existing tag. Times are ISO 8601 (`created_at` defaults to the clock,
 * `released_at` to `created_at`); `milestones` are titles of the project's milestones or of its
 * group's; `author` is a username (the project's creator when absent).
 *
 *     releases: [{ tag_name: 'v1.0', name: 'First', description: 'Notes', milestones: ['1.0'],
 *                  links: [{ name: 'linux', url: 'https://example.com/app', direct_asset_path: '/bin/app', link_type: 'package' }] }]
 */
export type FixtureRelease = Infer<typeof releaseSchema>;

export type FixtureReleasesPart = Infer<typeof releasesSchema>;

function time(where: string, field: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new EmulatorError(`${where} has an invalid ${field} '${text}'`);
  return ms;
}

function build(draft: State, project: Project, f: FixtureRelease, where: string, now: number): Release {
  const tag = findTag(refsOf(draft, project.id), f.tag_name);
  if (!tag) throw new EmulatorError(`${where} names unknown tag '${f.tag_name}'`);
  if (findRelease(draft, project, f.tag_name)) throw new EmulatorError(`${where}: the tag already has a release`);
  const author = f.author === undefined ? tget(draft.users, project.creatorId) : findUserByUsername(draft, f.author);
  if (!author) throw new EmulatorError(`${where} names unknown user '${f.author}'`);
  const scope = projectMilestoneScope(draft, project);
  const milestoneIds = (f.milestones ?? []).map((title) => {
    const m = scope.find((x) => x.title === title);
    if (!m) throw new EmulatorError(`${where} names unknown milestone '${title}'`);
    return m.id;
  });
  const links = (f.links ?? []).map((l) => ({ name: l.name, url: l.url.trim(), filepath: l.direct_asset_path ?? null, linkType: l.link_type }));
  const problems = newLinkErrors(links);
  if (problems.length === 0) problems.push(...duplicateLinkErrors(links, 0).map((m) => m.replace(/ for #<Release:\w+> scope$/, '')));
  if (problems.length) throw new EmulatorError(`${where} is invalid: ${problems.join(', ')}`);
  const createdAt = time(where, 'created_at', f.created_at, now);
  return {
    id: ids.next(draft, 'release'),
    tagName: f.tag_name,
    name: f.name ?? f.tag_name,
    description: f.description ?? '',
    createdAt,
    updatedAt: createdAt,
    releasedAt: time(where, 'released_at', f.released_at, createdAt),
    authorId: author.id,
    sha: tag.commit,
    milestoneIds,
    links: links.map((l) => {
      if (l.linkType !== undefined && !isLinkType(l.linkType)) throw new EmulatorError(`${where}: link '${l.name}' has an unknown link_type '${l.linkType}'`);
      return { id: ids.next(draft, 'release_link'), name: l.name, url: l.url, filepath: l.filepath, linkType: checkLinkType(l.linkType), createdAt };
    }),
    evidences: [],
  };
}

/** Adds every fixture release to its project. */
export function seedReleases(s: SeedRun): void {
  const wanted = (s.fixture.projects ?? []).filter((p) => p.releases?.length);
  if (wanted.length === 0) return;
  s.update((draft) => {
    for (const f of wanted) {
      const project = tget(draft.projects, s.handles.projects[fixtureProjectPath(f)]!.id)!;
      for (const r of f.releases!) {
        const release = build(draft as State, project, r, `${projectWhere(f)}: release '${r.tag_name}'`, s.now);
        pset(draft.releases, project.id, release.tagName, release);
      }
    }
  });
}
