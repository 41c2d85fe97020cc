// GitLab's CI and release types over the world: Pipeline, CiJob, Release.
import { projectFullPath } from '../../policy/paths.js';
import type { Project } from '../../store/state.js';
import { pipelineJobs, projectPipelines, type Job, type Pipeline } from '../ci/index.js';
import type { Release } from '../releases/index.js';
import { Connection, type PageArgs } from './connection.js';
import { gid, time, userNode, type Graph } from './model.js';

const seconds = (from: number | null, to: number | null) => (from !== null && to !== null ? Math.round((to - from) / 1000) : null);

export class PipelineNode {
  readonly __typename = 'Pipeline';
  constructor(private g: Graph, readonly p: Pipeline, private project: Project) {}
  get id() { return gid('Ci::Pipeline', this.p.id); }
  get iid() { return String(this.p.iid); }
  get ref() { return this.p.ref; }
  get beforeSha() { return this.p.beforeSha; }
  sha(args: { format?: string }) { return this.p.sha === null ? null : args.format === 'short' ? this.p.sha.slice(0, 8) : this.p.sha; }
  get status() { return this.p.status.toUpperCase(); }
  get source() { return this.p.source; }
  get createdAt() { return time(this.p.createdAt); }
  get updatedAt() { return time(this.p.updatedAt); }
  get startedAt() { return time(this.p.startedAt); }
  get finishedAt() { return time(this.p.finishedAt); }
  get duration() { return seconds(this.p.startedAt, this.p.finishedAt); }
  get path() { return `/${projectFullPath(this.g.state, this.project)}/-/pipelines/${this.p.id}`; }
  user() { return userNode(this.g, this.p.userId); }
  jobs(args: PageArgs & { statuses?: string[]; retried?: boolean }) {
    const list = pipelineJobs(this.g.state, this.p.id).filter(
      (j) => (!args.statuses || args.statuses.includes(j.status.toUpperCase())) && (args.retried === undefined || args.retried === null ? true : j.retried === args.retried),
    );
    return new Connection(list.map((j) => new JobNode(this.g, j, this.project)), args, (n) => n.j.id);
  }
}

export class JobNode {
  readonly __typename = 'CiJob';
  constructor(private g: Graph, readonly j: Job, private project: Project) {}
  get id() { return gid('Ci::Build', this.j.id); }
  get name() { return this.j.name; }
  get status() { return this.j.status.toUpperCase(); }
  get stageName() { return this.j.stage; }
  get allowFailure() { return this.j.allowFailure; }
  get refName() { return this.j.ref; }
  get retried() { return this.j.retried; }
  get tags() { return this.j.tagList; }
  get shortSha() { return (this.j.sha ?? '').slice(0, 8); }
  get createdAt() { return time(this.j.createdAt); }
  get queuedAt() { return time(this.j.queuedAt); }
  get startedAt() { return time(this.j.startedAt); }
  get finishedAt() { return time(this.j.finishedAt); }
  get duration() { return seconds(this.j.startedAt, this.j.finishedAt); }
  get webPath() { return `/${projectFullPath(this.g.state, this.project)}/-/jobs/${this.j.id}`; }
  pipeline() {
    if (this.j.pipelineId === null) return null;
    for (const p of projectPipelines(this.g.state, this.project.id)) if (p.id === this.j.pipelineId) return new PipelineNode(this.g, p, this.project);
    return null;
  }
}

export class ReleaseNode {
  readonly __typename = 'Release';
  constructor(private g: Graph, readonly r: Release) {}
  get tagName() { return this.r.tagName; }
  get name() { return this.r.name; }
  get description() { return this.r.description || null; }
  get createdAt() { return time(this.r.createdAt); }
  get releasedAt() { return time(this.r.releasedAt); }
  get upcomingRelease() { return this.r.releasedAt > this.g.now; }
  author() { return userNode(this.g, this.r.authorId); }
}

