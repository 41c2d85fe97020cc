// The messages the members family answers itself (lib/api/members.rb, members_helpers.rb,
// Members::CreateService, Member's validations, the share endpoints).
import { badRequest, conflict, messageError, validationFailed } from '../../core/errors.js';

export const memberExists = () => conflict('Member already exists');
export const levelNotInList = () => validationFailed({ access_level: ['is not included in the list'] });
export const expiryInPast = () => validationFailed({ expires_at: ['cannot be a date in the past'] });
export const belowInherited = (role: string, groupName: string) =>
  validationFailed({ access_level: [`should be greater than or equal to ${role} inherited membership from group ${groupName}`] });
export const projectBotElsewhere = () => validationFailed({ user_id: ['project bots cannot be added to other groups / projects'] });
/** Billable members of a subgroup, or asked by someone who may not see them. */
export const billableRefused = () => badRequest();
export const billableNotRemovable = (reason: string) => badRequest(reason);
export const shareNotFound = () => messageError(404, 'Not Found');
export const shareTaken = (text: string) => messageError(409, text);
export const sharingDisabled = () => messageError(400, 'The project sharing with group is disabled');
