// A commit status: a job of an external stage, as GenericCommitStatus keeps it, and the
// external pipeline it belongs to (one per commit and ref, made by the first status posted).

export type StatusState = 'created' | 'pending' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped';

export interface CommitStatus {
  id: number;
  projectId: number;
  sha: string;
  ref: string;
  status: StatusState;
  name: string;
  targetUrl: string | null;
  description: string | null;
  coverage: number | null;
  pipelineId: number;
  userId: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** A later status of the same name in the same pipeline replaced it (CommitStatus#retried). */
  retried: boolean;
}

/** An external pipeline: what statuses posted for one commit and ref share. */
export interface ExternalPipeline {
  id: number;
  projectId: number;
  sha: string;
  ref: string;
  userId: number;
  createdAt: number;
}
