// What the commit status routes answer when a request is refused (lib/api/commit_statuses.rb,
// Ci::CreateCommitStatusService, the state machine of CommitStatus).
import { messageError, notFound } from '../../core/errors.js';

export const referencesNotFound = () => notFound('References for commit');
export const pipelineNotFound = () => notFound('Pipeline for pipeline_id, sha and ref');

/** StateMachines::InvalidTransition, as AddJobService hands its message back. */
export const cannotTransition = (event: string, from: string) =>
  messageError(400, `Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`);
