// The package registry's generic packages (lib/api/generic_packages.rb, lib/api/project_packages.rb,
// group_packages.rb, Entities::Package and Package::PackageFile): a file uploaded under a name and
// a version makes the package (or joins it), is downloaded back as sent, and the packages are
// listed per project and per group; the protection rules are listed (none are made here).
import { recordNotFound, grapeError } from '../../core/errors.js';
import { sha256Hex, toBase64, fromBase64 } from '../../git/bytes.js';
import { bool, int, str } from '../../http/params.js';
import { json, noContent, type Reply } from '../../http/route.js';
import { canReadProject, hasProjectRole, isWithin, projectReader } from '../../policy/access.js';
import { projectFullPath } from '../../policy/paths.js';
import { iso } from '../../render/time.js';
import { emptyTable, pdel, pget, plist, pset, tdel, tget, tvalues, type Partitioned } from '../../store/table.js';
import { ACCESS, sequences, type Project, type User } from '../../store/state.js';
import { defineFamily, group, project, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';

export interface PackageFile {
  id: number;
  fileName: string;
  size: number;
  sha256: string;
  /** The file's bytes, Base64. */
  content: string;
  createdAt: number;
}

export interface Package {
  id: number;
  projectId: number;
  name: string;
  version: string;
  packageType: 'generic';
  status: 'default' | 'hidden';
  files: PackageFile[];
  createdAt: number;
  updatedAt: number;
  lastDownloadedAt: number | null;
}

export interface PackagesSlice {
  /** Project id -> its packages by id. */
  packages: Partitioned<Package>;
}

declare module '../world.js' {
  interface Slices extends PackagesSlice {}
}

const ids = sequences(['package', 'package_file']);

/** Gitlab::Regex: generic package names, versions and file names (no `..`). */
const NAME = /^[-+.\w]+$/;
const VERSION = /^[\w+.-]+$/;
const FILE_NAME = /^[\w+.~-]+$/;
const valid = (re: RegExp, v: string) => re.test(v) && !v.includes('..');

/** `read_package`: whoever reads the project. */
const canReadPackages = (state: State, user: User | null, p: Project, now: number) => canReadProject(state, user, p, now);
/** `create_package`, `destroy_package`: Developers and Maintainers. */
const canCreatePackage = (state: State, user: User | null, p: Project, now: number) => hasProjectRole(state, user, p, ACCESS.developer, now);

function packageEntity(state: State, pkg: Package, u: { webBase: string }, inGroup: boolean) {
  const p = tget(state.projects, pkg.projectId)!;
  const full = projectFullPath(state, p);
  return {
    id: pkg.id,
    name: pkg.name,
    version: pkg.version,
    package_type: pkg.packageType,
    status: pkg.status,
    _links: { web_path: `/${full}/-/packages/${pkg.id}`, delete_api_path: `${u.webBase}/api/v4/projects/${pkg.projectId}/packages/${pkg.id}` },
    created_at: iso(pkg.createdAt),
    last_downloaded_at: iso(pkg.lastDownloadedAt),
    ...(inGroup ? { project_id: pkg.projectId, project_path: full } : {}),
    tags: [],
  };
}

function fileEntity(pkg: Package, f: PackageFile) {
  return {
    id: f.id, package_id: pkg.id, created_at: iso(f.createdAt), updated_at: iso(f.createdAt), size: f.size, file_store: 1,
    file_md5: null, file_sha1: null, file_name: f.fileName, file: { url: null }, file_sha256: f.sha256,
    verification_retry_at: null, verified_at: null, verification_failure: null, verification_retry_count: null, verification_checksum: null,
    verification_state: 0, verification_started_at: null, status: 'default', new_file_path: null, file_final_path: null, project_id: pkg.projectId,
  };
}

function listed(list: Package[], p: { package_type?: string; package_name?: string; package_version?: string; status?: string; order_by: string; sort: string }): Package[] {
  const out = list.filter(
    (x) => (!p.package_type || x.packageType === p.package_type) && (!p.package_name || x.name.toLowerCase().includes(p.package_name.toLowerCase()))
      && (!p.package_version || x.version === p.package_version) && (p.status ? x.status === p.status : x.status === 'default'),
  );
  const key = (x: Package) => (p.order_by === 'name' ? x.name : p.order_by === 'version' ? x.version : p.order_by === 'type' ? x.packageType : x.createdAt);
  const dir = p.sort === 'desc' ? -1 : 1;
  return out.sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : a.id - b.id));
}

const LIST = {
  order_by: str().values(['created_at', 'name', 'version', 'type'] as const).default('created_at'),
  sort: str().values(['asc', 'desc'] as const).default('asc'),
  package_type: str().values(['generic', 'maven', 'npm', 'conan', 'nuget', 'pypi', 'composer', 'golang', 'debian', 'rubygems', 'helm', 'terraform_module', 'ml_model'] as const),
  package_name: str(), package_version: str(), include_versionless: bool(), status: str().values(['default', 'hidden', 'processing', 'error', 'pending_destruction'] as const),
};

const GENERIC = '/projects/:id/packages/generic/:package_name/:package_version/:file_name';
const FILE_PARAMS = { package_name: str().required(), package_version: str().required(), file_name: str().required() };

function checkNames(p: { package_name: string; package_version: string; file_name: string }): void {
  if (!valid(NAME, p.package_name)) throw grapeError(400, 'package_name is invalid');
  if (!valid(VERSION, p.package_version)) throw grapeError(400, 'package_version is invalid');
  if (!valid(FILE_NAME, p.file_name)) throw grapeError(400, 'file_name is invalid');
}

function findGeneric(state: State, projectId: number, name: string, version: string): Package | undefined {
  return plist(state.packages, projectId).find((x) => x.packageType === 'generic' && x.name === name && x.version === version);
}

async function upload(ctx: Context<{ package_name: string; package_version: string; file_name: string; status?: 'default' | 'hidden'; select?: 'package_file' }>): Promise<Reply> {
  const p = ctx.params;
  checkNames(p);
  const bytes = ctx.body;
  const sha = await sha256Hex(bytes);
  const now = ctx.now();
  const projectId = ctx.project.id;
  const before = findGeneric(ctx.state, projectId, p.package_name, p.package_version);
  const made = ctx.update((draft) => {
    const d = draft as State;
    const file: PackageFile = { id: ids.next(d, 'package_file'), fileName: p.file_name, size: bytes.length, sha256: sha, content: toBase64(bytes), createdAt: now };
    const pkg: Package = before
      ? { ...before, files: [...before.files, file], status: p.status ?? before.status, updatedAt: now }
      : { id: ids.next(d, 'package'), projectId, name: p.package_name, version: p.package_version, packageType: 'generic', status: p.status ?? 'default', files: [file], createdAt: now, updatedAt: now, lastDownloadedAt: null };
    pset(d.packages, projectId, pkg.id, pkg);
    return { pkg, file };
  });
  if (p.select === 'package_file') return json(fileEntity(made.pkg, made.file), 201);
  return json({ message: '201 Created' }, 201);
}

const routes = [
  route({
    method: 'PUT', path: GENERIC, auth: 'user', jobToken: true, scope: project(canCreatePackage),
    params: { ...FILE_PARAMS, status: str().values(['default', 'hidden'] as const), select: str().values(['package_file'] as const) },
    handler: (ctx) => upload(ctx),
  }),
  route({
    method: 'GET', path: GENERIC, jobToken: true, scope: project(canReadPackages), params: FILE_PARAMS,
    handler: (ctx): Reply => {
      checkNames(ctx.params);
      const pkg = findGeneric(ctx.state, ctx.project.id, ctx.params.package_name, ctx.params.package_version);
      // The newest file of that name, as Packages::PackageFileFinder takes it.
      const file = pkg?.files.filter((f) => f.fileName === ctx.params.file_name).at(-1);
      if (!pkg || !file) throw recordNotFound();
      return {
        status: 200, raw: fromBase64(file.content), contentType: 'application/octet-stream',
        headers: { 'Content-Disposition': `attachment; filename="${encodeURIComponent(file.fileName)}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}` },
      };
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/packages', cacheable: true, scope: project(canReadPackages), paginated: true, params: LIST,
    handler: (ctx): Reply => json(ctx.paginate(listed(plist(ctx.state.packages, ctx.project.id), ctx.params)).map((x) => packageEntity(ctx.state, x, ctx, false))),
  }),
  route({
    method: 'GET', path: '/groups/:id/packages', cacheable: true, scope: group(), paginated: true, params: { ...LIST, exclude_subgroups: bool().default(false) },
    handler: (ctx): Reply => {
      const readable = projectReader(ctx.state, ctx.user, ctx.now());
      const all: Package[] = [];
      for (const p of tvalues(ctx.state.projects)) {
        const inside = ctx.params.exclude_subgroups ? p.namespaceId === ctx.group.id : isWithin(ctx.state, p.namespaceId, ctx.group.id);
        if (inside && readable(p)) all.push(...plist(ctx.state.packages, p.id));
      }
      return json(ctx.paginate(listed(all, ctx.params)).map((x) => packageEntity(ctx.state, x, ctx, true)));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/packages/:package_id', scope: project(canReadPackages), params: { package_id: int().required() },
    handler: (ctx): Reply => {
      const pkg = pget(ctx.state.packages, ctx.project.id, ctx.params.package_id);
      if (!pkg) throw recordNotFound();
      return json(packageEntity(ctx.state, pkg, ctx, false));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/packages/:package_id/package_files', scope: project(canReadPackages), paginated: true, params: { package_id: int().required() },
    handler: (ctx): Reply => {
      const pkg = pget(ctx.state.packages, ctx.project.id, ctx.params.package_id);
      if (!pkg) throw recordNotFound();
      return json(ctx.paginate(pkg.files).map((f) => fileEntity(pkg, f)));
    },
  }),
  route({
    method: 'DELETE', path: '/projects/:id/packages/:package_id', auth: 'user', scope: project(canCreatePackage), params: { package_id: int().required() },
    handler: (ctx): Reply => {
      const pkg = pget(ctx.state.packages, ctx.project.id, ctx.params.package_id);
      if (!pkg) throw recordNotFound();
      ctx.update((draft) => void pdel((draft as State).packages, pkg.projectId, pkg.id));
      return noContent();
    },
  }),
  route({
    // Maintainers read the protection rules; none are made through the emulator.
    method: 'GET', path: '/projects/:id/packages/protection/rules', auth: 'user', paginated: true,
    scope: project((state, user, p, now) => hasProjectRole(state, user, p, ACCESS.maintainer, now)),
    handler: (ctx): Reply => json(ctx.paginate([])),
  }),
];

export const packages: Family<PackagesSlice> = defineFamily({
  name: 'packages',
  state: () => ({ packages: emptyTable() }),
  routes,
  forget: { project: (draft, id) => void tdel((draft as State).packages, id) },
});
