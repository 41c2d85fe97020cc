// What the milestone routes answer when a rule refuses (lib/api/milestone_responses.rb).
import { messageError } from '../../core/errors.js';

/** Milestones::CreateService's invalid milestone, with ActiveModel's errors as Ruby prints a Hash. */
export const milestoneNotCreated = (errors: string) => messageError(400, `Failed to create milestone ${errors}`);

/** update_milestone_for: an invalid milestone is `Failed to update milestone {...}`. */
export const milestoneNotUpdated = (errors: string) => messageError(400, `Failed to update milestone ${errors}`);
