// Which repository a git URL names, as Gitlab::RepoPath.parse finds it: a project's (its code,
// or its wiki's, `<path>.wiki`), else a group's wiki (`<group path>.wiki`, the higher tier's),
// else a snippet's (`<project path>/snippets/<id>` for a project's snippet, `snippets/<id>` for a
// personal one, the `http_url_to_repo` the API shows). A path that names none of them is a
// project's that does not exist (which a push may create).
import type { State } from '../../families/world.js';
import { namespaceByIdOrPath, projectByIdOrPath } from '../../policy/paths.js';
import type { Namespace } from '../../store/state.js';
import { snippetById, type Snippet } from '../../families/snippets/index.js';
import { gitTarget, type GitTarget } from './access.js';

export type GitRepository =
  | { kind: 'project'; target: GitTarget }
  | { kind: 'snippet'; target: GitTarget; snippet: Snippet }
  | { kind: 'groupWiki'; target: GitTarget; group: Namespace };

const SNIPPET_PATH = /^(?:(.+)\/)?snippets\/(\d+)$/;

export function gitRepository(state: State, repoPath: string): GitRepository {
  const target = gitTarget(state, repoPath);
  if (target.project) return { kind: 'project', target };
  if (target.wiki && state.instance.tier !== 'free') {
    // GroupWiki: EE's; below the higher tier a group has no wiki to serve.
    const group = namespaceByIdOrPath(state, target.fullPath.slice(0, -5));
    if (group && group.kind === 'group' && !group.pendingDelete && !/^\d+$/.test(target.fullPath.slice(0, -5))) return { kind: 'groupWiki', target, group };
  }
  const m = SNIPPET_PATH.exec(target.fullPath);
  if (m) {
    // Snippet.find_by_id_and_project: a project's snippet under its project's path, a personal one under none.
    const snippet = snippetById(state, Number(m[2]));
    const projectPath = m[1];
    if (snippet && projectPath === undefined && snippet.projectId === null) return { kind: 'snippet', target, snippet };
    if (snippet && projectPath !== undefined && snippet.projectId !== null && !/^\d+$/.test(projectPath)) {
      const project = projectByIdOrPath(state, projectPath);
      if (project && project.id === snippet.projectId) return { kind: 'snippet', target, snippet };
    }
  }
  return { kind: 'project', target };
}
