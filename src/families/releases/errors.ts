// What the release routes answer when a service refuses (app/services/releases/*,
// app/services/releases/links/*, lib/api/releases.rb, lib/api/release/links.rb).
import { messageError } from '../../core/errors.js';
import { PROTECTED_TAG_DENIED } from '../tags/index.js';

/** Releases::CreateService when the caller may not create the release's (protected) tag. */
export const tagProtected = () => messageError(403, PROTECTED_TAG_DENIED);
export const releaseExists = () => messageError(409, 'Release already exists');
/** Releases::CreateService when the tag is new and no `ref` says where to make it. */
export const refNotSpecified = () => messageError(422, 'Ref is not specified');
/** Release#save! raising ActiveRecord::RecordInvalid, with every message in order. */
export const releaseInvalid = (messages: readonly string[]) => messageError(400, `Validation failed: ${messages.join(', ')}`);
export const milestonesNotFound = (titles: readonly string[]) => messageError(400, `Milestone(s) not found: ${titles.join(', ')}`);
export const milestoneIdsNotFound = (ids: readonly number[]) => messageError(400, `Milestone id(s) not found: ${ids.join(', ')}`);
/** Releases::UpdateService and DestroyService on a release whose tag is gone. */
export const tagMissing = () => messageError(404, 'Tag does not exist');
/** Releases::UpdateService with nothing to change. */
export const nothingToUpdate = () => messageError(400, 'params is empty');
/** A link's own validations: the body's message is the list of `Attribute message` texts. */
export const linkInvalid = (errors: readonly string[]) => messageError(400, errors);
/** Releases::Link's `link_type` enum refusing a value (ArgumentError, rendered as 400). */
export const linkTypeInvalid = (type: string) => messageError(400, `'${type}' is not a valid link_type`);
