// GET /projects/:id/groups (lib/api/projects.rb, Projects::GroupsFinder): the groups of a
// project's hierarchy, and with `with_shared` those it is shared with, as the caller sees them.
import { arr, bool, int, str } from '../../http/params.js';
import { json } from '../../http/route.js';
import { ancestry, canReadGroup } from '../../policy/access.js';
import { sharesOf } from '../../store/members.js';
import type { Namespace } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { fullName } from '../namespaces/index.js';
import { defineFamily, project, route, type Family } from '../define.js';

const ACCESS_LEVELS = [10, 20, 30, 40, 50] as const;

export const projectGroups: Family = defineFamily({
  name: 'project-groups',
  routes: [
    route({
      method: 'GET', path: '/projects/:id/groups', cacheable: true, scope: project(), paginated: true,
      params: {
        search: str(),
        skip_groups: arr(int()),
        with_shared: bool().default(false),
        shared_visible_only: bool().default(false),
        shared_min_access_level: int().values(ACCESS_LEVELS),
      },
      handler: (ctx) => {
        const p = ctx.params;
        const found = new Map<number, Namespace>();
        for (const g of ancestry(ctx.state, ctx.project.namespaceId)) if (g.kind === 'group') found.set(g.id, g);
        if (p.with_shared)
          for (const share of sharesOf(ctx.state, ctx.project)) {
            const g = tget(ctx.state.namespaces, share.groupId);
            if (!g || (p.shared_min_access_level !== undefined && share.groupAccess < p.shared_min_access_level)) continue;
            if (p.shared_visible_only && !canReadGroup(ctx.state, ctx.user, g, ctx.now())) continue;
            found.set(g.id, g);
          }
        const q = p.search?.toLowerCase();
        const skip = new Set(p.skip_groups ?? []);
        const groups = [...found.values()]
          .filter((g) => !skip.has(g.id) && (!q || g.name.toLowerCase().includes(q) || g.path.toLowerCase().includes(q)))
          .sort((a, b) => a.id - b.id);
        return json(ctx.paginate(groups).map((g) => ({
          id: g.id, web_url: `${ctx.webBase}/groups/${g.fullPath}`, name: g.name, avatar_url: null, full_name: fullName(ctx.state, g), full_path: g.fullPath,
        })));
      },
    }),
  ],
});
