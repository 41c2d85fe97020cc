// Forks (lib/api/projects.rb, Projects::ForkService): a copy of a project the caller may read,
// with its repository, in a namespace they may create projects in; the forks of a project; and
// the fork relation administrators make and owners remove. The relation is kept here; the
// projects' entities read it (`forked_from_project`, `forks_count`).
import { ApiError, conflict, messageError, notFound } from '../../core/errors.js';
import { reachableObjects } from '../../git/export.js';
import { bool, int, str } from '../../http/params.js';
import { noContent, type Reply } from '../../http/route.js';
import { canReadProject, canUseFeature } from '../../policy/access.js';
import { namespaceByIdOrPath, projectByIdOrPath } from '../../policy/paths.js';
import { minVisibility, VISIBILITIES } from '../../policy/visibility.js';
import type { Namespace, Project, User } from '../../store/state.js';
import { emptyTable, tdel, tget, tset, tvalues, type Table } from '../../store/table.js';
import { canOwnProject, newProject, projectJson, projectListReply, type ProjectView } from '../projects/index.js';
import { branchEntries, branchTip, draftRefs, refsOf, setBranchRef, setTagRef, tagEntries } from '../repositories/index.js';
import { defineFamily, project, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';

export interface ForkLink {
  /** The project it was forked from, and the root of its fork network. */
  forkedFromId: number;
  rootId: number;
}

export interface ForksSlice {
  /** Fork project id -> where it came from. */
  forkLinks: Table<ForkLink>;
}

declare module '../world.js' {
  interface Slices extends ForksSlice {}
}

const view = (ctx: Context<unknown>): ProjectView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase });
const projectReply = (ctx: Context<unknown>, p: Project, status: number): Reply => ({ status, json: projectJson(view(ctx), tget(ctx.state.projects, p.id)!, 'with-access').json });

/** ProjectPolicy fork_project: who reads the project and its code. */
const canFork = (s: State, u: User | null, p: Project, now: number) => !!u && canUseFeature(s, u, p, 'forking', now) && canUseFeature(s, u, p, 'repository', now);

/** The fork's target: namespace_id, namespace_path or namespace (an id or a path), else the caller's own. */
function targetNamespace(ctx: Context<unknown>, p: { namespace?: string; namespace_id?: number; namespace_path?: string }): Namespace {
  const given = p.namespace_id !== undefined ? String(p.namespace_id) : p.namespace_path ?? p.namespace;
  const ns = given === undefined ? tget(ctx.state.namespaces, ctx.user!.namespaceId) : namespaceByIdOrPath(ctx.state, given);
  if (!ns || ns.pendingDelete) throw notFound('Target Namespace');
  return ns;
}

/** The fork's repository: every object the source's branches (or the one asked for) and tags reach, and those refs. */
async function copyRepository(ctx: Context<unknown>, source: Project, fork: Project, onlyBranch: string | undefined): Promise<void> {
  const refs = refsOf(ctx.state, source.id);
  const branches = [...branchEntries(refs)].filter(([name]) => onlyBranch === undefined || name === onlyBranch);
  const tags = onlyBranch === undefined ? [...tagEntries(refs)] : [];
  const from = ctx.env.git.repository(source.id);
  const to = ctx.env.git.repository(fork.id);
  for (const oid of await reachableObjects(from, [...branches.map(([, sha]) => sha), ...tags.map(([, t]) => t.target)])) {
    const { type, object } = await from.readObject(oid);
    await to.writeObject(type, object);
  }
  ctx.update((draft) => {
    const r = draftRefs(draft, fork.id);
    for (const [name, sha] of branches) setBranchRef(r, name, sha);
    for (const [name, tag] of tags) setTagRef(r, name, tag);
    const d = tget((draft as State).projects, fork.id)!;
    d.defaultBranch = onlyBranch ?? source.defaultBranch;
  });
}

function link(ctx: Context<unknown>, fork: Project, source: Project): void {
  const root = tget(ctx.state.forkLinks, source.id)?.rootId ?? source.id;
  ctx.update((draft) => tset((draft as State).forkLinks, fork.id, { forkedFromId: source.id, rootId: root }));
}

export const forks: Family<ForksSlice> = defineFamily({
  name: 'forks',
  state: () => ({ forkLinks: emptyTable() }),
  routes: [
    route({
      method: 'POST', path: '/projects/:id/fork', auth: 'user', scope: project(canFork),
      params: {
        namespace: str(), namespace_id: int(), namespace_path: str(), path: str(), name: str(), description: str(),
        visibility: str().values(VISIBILITIES), branches: str(), mr_default_target_self: bool(),
      },
      handler: async (ctx) => {
        const p = ctx.params;
        const source = ctx.project;
        const ns = targetNamespace(ctx, p);
        if (p.branches !== undefined && branchTip(refsOf(ctx.state, source.id), p.branches) === undefined) throw conflict(`Failed to fork: Branch ${p.branches} not found`);
        let made: Project;
        try {
          made = ctx.update(newProject(ctx.state, ctx.user!, {
            name: p.name ?? source.name, path: p.path ?? source.path, description: p.description ?? source.description,
            visibility: minVisibility(p.visibility ?? source.visibility, source.visibility), features: { ...source.features }, settings: {}, namespaceId: ns.id,
          }, ctx.now()));
        } catch (e) {
          // Projects::ForkService's errors are the API's 409, with the model's messages.
          if (e instanceof ApiError && e.status === 400 && typeof e.body === 'object' && e.body !== null && 'message' in e.body) throw messageError(409, e.body.message);
          throw e;
        }
        link(ctx, made, source);
        await copyRepository(ctx, source, made, p.branches);
        return projectReply(ctx, made, 201);
      },
    }),
    route({
      method: 'GET', path: '/projects/:id/forks', scope: project(), paginated: true, params: { simple: bool().default(false) },
      handler: (ctx) => {
        const list = [...tvalues(ctx.state.projects)].filter(
          (p) => !p.pendingDelete && tget(ctx.state.forkLinks, p.id)?.forkedFromId === ctx.project.id && canReadProject(ctx.state, ctx.user, p, ctx.now()),
        ).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
        return projectListReply(ctx, ctx.paginate(list), 'with-access');
      },
    }),
    route({
      method: 'POST', path: '/projects/:id/fork/:forked_from_id', auth: 'admin', scope: project(), params: { forked_from_id: str().required() },
      handler: (ctx) => {
        const source = namespaceFreeProject(ctx, ctx.params.forked_from_id);
        if (tget(ctx.state.forkLinks, ctx.project.id)) throw conflict('Project already forked');
        link(ctx, ctx.project, source);
        return projectReply(ctx, ctx.project, 201);
      },
    }),
    route({
      method: 'DELETE', path: '/projects/:id/fork', auth: 'user', scope: project(canOwnProject),
      handler: (ctx) => {
        if (!tget(ctx.state.forkLinks, ctx.project.id)) return { status: 304 };
        ctx.update((draft) => void tdel((draft as State).forkLinks, ctx.project.id));
        return noContent();
      },
    }),
  ],
  forget: { project: (draft, id) => void tdel((draft as State).forkLinks, id) },
});

/** `find_project!(params[:forked_from_id])`. */
function namespaceFreeProject(ctx: Context<unknown>, idOrPath: string): Project {
  const p = projectByIdOrPath(ctx.state, idOrPath);
  if (!p || p.pendingDelete || !canReadProject(ctx.state, ctx.user, p, ctx.now())) throw notFound('Project');
  return p;
}

