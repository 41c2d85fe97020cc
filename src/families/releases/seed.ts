// Releases of a fixture (FixtureRelease in src/fixture.ts), made once the repositories' refs are
// in the world, since a release names an existing tag. Seeding is data: no tag is created and
// no evidence collected; what GitLab would refuse (an unknown tag, milestone or user, bad links)
// throws an EmulatorError and seeds nothing.
import type { Fixture, FixtureRelease, SeedHandles } from '../fixture.js';
import { EmulatorError } from '../../core/errors.js';
import { nextId, type Project, type Release, type State } from '../../store/state.js';
import { tget } from '../../store/table.js';
import type { Recipe } from '../repositories/commit-service.js';
import { projectMilestoneScope } from '../milestones/rules.js';
import { checkLinkType, duplicateLinkErrors, findRelease, newLinkErrors } from './rules.js';
import { findUserByUsername } from '../users/rules.js';

function time(where: string, field: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new EmulatorError(`${where} has an invalid ${field} '${text}'`);
  return ms;
}

function build(draft: State, project: Project, f: FixtureRelease, where: string, now: number): Release {
  if (!Object.prototype.hasOwnProperty.call(project.repository.tags, f.tag_name)) throw new EmulatorError(`${where} names unknown tag '${f.tag_name}'`);
  if (findRelease(project, f.tag_name)) throw new EmulatorError(`${where}: the tag already has a release`);
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
    id: nextId(draft, 'release'),
    tagName: f.tag_name,
    name: f.name ?? f.tag_name,
    description: f.description ?? '',
    createdAt,
    updatedAt: createdAt,
    releasedAt: time(where, 'released_at', f.released_at, createdAt),
    authorId: author.id,
    sha: project.repository.tags[f.tag_name]!.commit,
    milestoneIds,
    links: links.map((l) => {
      let linkType;
      try {
        linkType = checkLinkType(l.linkType);
      } catch {
        throw new EmulatorError(`${where}: link '${l.name}' has an unknown link_type '${l.linkType}'`);
      }
      return { id: nextId(draft, 'release_link'), name: l.name, url: l.url, filepath: l.filepath, linkType, createdAt };
    }),
    evidences: [],
  };
}

/** The recipe that adds every fixture release to its project; null when the fixture has none. */
export function seedReleases(fixture: Fixture, handles: SeedHandles, now: number): Recipe | null {
  const wanted = (fixture.projects ?? []).filter((p) => p.releases?.length);
  if (wanted.length === 0) return null;
  return (draft) => {
    for (const f of wanted) {
      const id = handles.projects[`${f.namespace}/${f.path}`]?.id;
      const project = id === undefined ? undefined : tget(draft.projects, id);
      if (!project) continue;
      for (const r of f.releases!) {
        const release = build(draft as State, project, r, `project '${f.namespace}/${f.path}': release '${r.tag_name}'`, now);
        project.releases[release.tagName] = release;
      }
    }
  };
}
