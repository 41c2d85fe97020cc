// Typed fixture builders, for those who prefer code to JSON:
//   fixture().user('dev', { token: 'dev-token' }).project('acme/app', { files: { 'README.md': '# app\n' } })
// A builder is a plain `Fixture` once built (`.build()`, or anywhere a fixture is taken); it
// makes the groups a path names when nothing else declares them, and a token from `token`.
import type { Fixture, FixtureGroup, FixtureProject, FixtureUser } from './world.js';
import type { FixtureRepository } from './repositories/index.js';
import type { FixtureMember } from './users/index.js';
import type { RoleName } from '../policy/access.js';

type Instance = NonNullable<Fixture['instance']>;

/** A user: the fixture's fields, plus `token` (a personal access token with scope `api`) for short. */
export type UserSpec = Partial<Omit<FixtureUser, 'username'>> & { token?: string };
/** A group: the fixture's fields, plus `members` as `{ username: role }` for short. */
export type GroupSpec = Partial<Omit<FixtureGroup, 'path' | 'parent' | 'members'>> & { members?: FixtureMember[] | Record<string, RoleName | number> };
/** A project: the fixture's fields, plus `files` (the repository's first commit) and `members` as `{ username: role }`. */
export type ProjectSpec = Partial<Omit<FixtureProject, 'path' | 'namespace' | 'members'>> & {
  files?: FixtureRepository['files'];
  members?: FixtureMember[] | Record<string, RoleName | number>;
};

const members = (m: FixtureMember[] | Record<string, RoleName | number> | undefined): FixtureMember[] | undefined =>
  m === undefined ? undefined : Array.isArray(m) ? m : Object.entries(m).map(([user, access_level]) => ({ user, access_level }));

function split(fullPath: string): { parent?: string; path: string } {
  const clean = fullPath.replace(/^\/+|\/+$/g, '');
  const at = clean.lastIndexOf('/');
  return at === -1 ? { path: clean } : { parent: clean.slice(0, at), path: clean.slice(at + 1) };
}

export class FixtureBuilder {
  #instance: Instance | undefined;
  #users: FixtureUser[] = [];
  #groups: FixtureGroup[] = [];
  #projects: FixtureProject[] = [];
  /** Groups made because a path named them, not declared. */
  #made = new Set<FixtureGroup>();

  /** The instance's tier, offering and settings. */
  instance(instance: Instance): this {
    this.#instance = { ...this.#instance, ...instance };
    return this;
  }

  /** A user; `{ token: 'x' }` gives them a personal access token `x` with scope `api`. */
  user(username: string, spec: UserSpec = {}): this {
    const { token, tokens, ...rest } = spec;
    const all = [...(tokens ?? []), ...(token !== undefined ? [{ token, scopes: ['api'] }] : [])];
    this.#users.push({ username, ...rest, ...(all.length ? { tokens: all } : {}) } as FixtureUser);
    return this;
  }

  /** An administrator (`admin: true`), with a token when given one. */
  admin(username: string, spec: UserSpec = {}): this {
    return this.user(username, { ...spec, admin: true });
  }

  /** A group by its full path (`acme/tools` is `tools` under `acme`, made if not declared). */
  group(fullPath: string, spec: GroupSpec = {}): this {
    const { parent, path } = split(fullPath);
    if (parent !== undefined) this.#ensureGroup(parent);
    const existing = this.#groups.findIndex((g) => groupPath(g) === fullPath.toLowerCase());
    const m = members(spec.members);
    const group = { path, ...(parent !== undefined ? { parent } : {}), ...spec, ...(m ? { members: m } : {}) } as FixtureGroup;
    if (existing === -1) this.#groups.push(group);
    else {
      this.#made.delete(this.#groups[existing]!);
      this.#groups[existing] = group; // declared after a project or subgroup made it
    }
    return this;
  }

  /** A project by its full path; its namespace is a user of this fixture, or a group (made if not declared). */
  project(fullPath: string, spec: ProjectSpec = {}): this {
    const { parent: namespace, path } = split(fullPath);
    if (namespace === undefined) throw new TypeError(`fixture().project('${fullPath}'): a project's path names its namespace, as 'group/project' or 'user/project'`);
    if (!this.#users.some((u) => u.username.toLowerCase() === namespace.toLowerCase())) this.#ensureGroup(namespace, spec.visibility);
    const { files, repository, members: m, ...rest } = spec;
    const repo = files !== undefined ? { ...repository, files: { ...repository?.files, ...files } } : repository;
    this.#projects.push({ namespace, path, ...rest, ...(repo ? { repository: repo } : {}), ...(m ? { members: members(m) } : {}) } as FixtureProject);
    return this;
  }

  /** A project in a group needs a creator: the first administrator of this fixture, else its first user. */
  #withCreator(p: FixtureProject): FixtureProject {
    if (p.creator !== undefined || this.#users.some((u) => u.username.toLowerCase() === p.namespace.toLowerCase())) return p;
    const creator = (this.#users.find((u) => u.admin) ?? this.#users[0])?.username;
    return creator !== undefined ? { ...p, creator } : p;
  }

  /** Makes the group and its parents unless declared; a group it made is as open as what it holds. */
  #ensureGroup(fullPath: string, visibility?: FixtureGroup['visibility']): void {
    const { parent, path } = split(fullPath);
    if (parent !== undefined) this.#ensureGroup(parent, visibility);
    const at = this.#groups.findIndex((g) => groupPath(g) === fullPath.toLowerCase());
    const found = this.#groups[at];
    if (found === undefined) {
      const group = { path, ...(parent !== undefined ? { parent } : {}), ...(visibility && visibility !== 'private' ? { visibility } : {}) } as FixtureGroup;
      this.#groups.push(group);
      this.#made.add(group);
    } else if (this.#made.has(found) && visibility && OPENNESS.indexOf(visibility) > OPENNESS.indexOf(found.visibility ?? 'private')) {
      const group = { ...found, visibility };
      this.#made.delete(found);
      this.#made.add(group);
      this.#groups[at] = group;
    }
  }

  /** The fixture as data: what `createEmulator({ fixture })`, `emulator.seed` and the control API take. */
  build(): Fixture {
    return {
      ...(this.#instance ? { instance: this.#instance } : {}),
      ...(this.#users.length ? { users: [...this.#users] } : {}),
      ...(this.#groups.length ? { groups: [...this.#groups] } : {}),
      ...(this.#projects.length ? { projects: this.#projects.map((p) => this.#withCreator(p)) } : {}),
    } as Fixture;
  }

  /** `JSON.stringify(builder)` writes the fixture. */
  toJSON(): Fixture {
    return this.build();
  }
}

const OPENNESS = ['private', 'internal', 'public'];

function groupPath(g: FixtureGroup): string {
  return (g.parent ? `${g.parent}/${g.path}` : g.path).toLowerCase();
}

/** A fixture built in code; `.build()` gives the `Fixture`. */
export function fixture(): FixtureBuilder {
  return new FixtureBuilder();
}
