// Entities::CommitStatus (lib/api/entities/commit_status.rb).
import type { User } from '../../store/state.js';
import { iso } from '../../render/time.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { CommitStatus } from './records.js';

export function commitStatusEntity(s: CommitStatus, author: User | undefined, u: UrlBase) {
  return {
    id: s.id,
    sha: s.sha,
    ref: s.ref,
    status: s.status,
    name: s.name,
    target_url: s.targetUrl,
    description: s.description,
    created_at: iso(s.createdAt),
    started_at: iso(s.startedAt),
    finished_at: iso(s.finishedAt),
    allow_failure: false,
    coverage: s.coverage,
    pipeline_id: s.pipelineId,
    author: author ? userBasic(author, u) : null,
  };
}
