// A user's projects (lib/api/projects.rb `GET /users/:user_id/projects`): the projects of the
// user's own namespace that the caller may see, with every filter and rendering of GET /projects.
import { KEYSET_BY_ID } from '../../http/pagination.js';
import { str } from '../../http/params.js';
import { tvalues } from '../../store/table.js';
import type { Project } from '../../store/state.js';
import { defineFamily, route, type Family } from '../define.js';
import { findProjects, PROJECT_LIST_PARAMS, projectListReply } from '../projects/index.js';
import { visibleUser } from '../users/index.js';

const routes = [
  route({
    method: 'GET', path: '/users/:user_id/projects', cacheable: true, paginated: { keyset: KEYSET_BY_ID },
    params: { ...PROJECT_LIST_PARAMS, user_id: str().required() }, subject: visibleUser('user_id'),
    handler: (ctx) => {
      const owner = ctx.subject;
      const own: Project[] = [];
      for (const p of tvalues(ctx.state.projects)) if (p.namespaceId === owner.namespaceId) own.push(p);
      return projectListReply(ctx, ctx.paginate(findProjects(ctx.state, ctx.user, ctx.params, own, ctx.now())), 'with-access');
    },
  }),
];

export const userProjects: Family = defineFamily({ name: 'user-projects', routes });
