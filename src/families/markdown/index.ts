// POST /markdown (lib/api/markdown.rb): renders text as GitLab's Banzai pipeline does, with the
// wikis' renderer (CommonMark with GitLab's source positions, directions and link attributes).
// `gfm` and `project` are read as GitLab reads them; the references a GFM render would link
// (issues, users, commits) are left as text here.
import { notFound } from '../../core/errors.js';
import { bool, str } from '../../http/params.js';
import { json } from '../../http/route.js';
import { canReadProject } from '../../policy/access.js';
import { tget } from '../../store/table.js';
import { defineFamily, route, type Family } from '../define.js';
import { renderPage } from '../wikis/index.js';

const markdownRoutes = [
  route({
    // authenticate! behind `authenticate_markdown_api`, on by default; a read, so read_api will do.
    method: 'POST', path: '/markdown', auth: 'user', anyMethodScopes: ['read_api'],
    params: { text: str().required(), gfm: bool(), project: str() },
    handler: async (ctx) => {
      if (ctx.params.project !== undefined) {
        // Project.find_by_full_path: a path, never an id.
        const entry = tget(ctx.state.paths, ctx.params.project.toLowerCase());
        const project = entry?.kind === 'project' ? tget(ctx.state.projects, entry.id) : undefined;
        if (!project || !canReadProject(ctx.state, ctx.user, project, ctx.now())) throw notFound('Project');
      }
      return json({ html: await renderPage('markdown', ctx.params.text) }, 201);
    },
  }),
];

export const markdown: Family = defineFamily({ name: 'markdown', routes: markdownRoutes });
