// A commit's pipelines as the commits API shows them (lib/api/entities/commit_detail.rb,
// CommitPresenter#status_for, Commit#latest_pipeline): the status of its newest pipeline and that
// pipeline, for whoever may read the project's pipelines; null otherwise or when it has none.
import type { Project } from '../../store/state.js';
import { pget } from '../../store/table.js';
import type { Context } from '../define.js';
import type { State } from '../world.js';
import { pipelineBasic } from './job-entity.js';
import { canReadBuilds, projectPipelines } from './pipelines.js';
import type { Pipeline } from './records.js';

/** The newest pipeline of a commit (any ref; child pipelines are their parents'). */
export function latestCommitPipeline(state: State, projectId: number, sha: string): Pipeline | undefined {
  const id = pget(state.headPipelines, projectId, `\n${sha}`);
  const indexed = id === undefined ? undefined : pget(state.pipelines, projectId, id);
  if (indexed) return indexed;
  if (id === undefined) return undefined;
  // The newest was deleted: the next one back, if any.
  for (const p of projectPipelines(state, projectId)) if (p.sha === sha && p.parentId === null) return p;
  return undefined;
}

/** `status` and `last_pipeline` of Entities::CommitDetail. */
export function commitPipelineFields(ctx: Context<unknown>, project: Project, sha: string) {
  const pipeline = latestCommitPipeline(ctx.state, project.id, sha);
  if (!pipeline || !canReadBuilds(ctx.state, ctx.user, project, ctx.now())) return { status: null, last_pipeline: null };
  return { status: pipeline.status as string, last_pipeline: pipelineBasic(ctx.state, pipeline, ctx) };
}
