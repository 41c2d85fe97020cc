// What the tag routes and services answer when they refuse (lib/api/tags.rb,
// app/services/tags/{create,destroy}_service.rb, Gitlab::Pagination::GitalyKeysetPager).
import { messageError, notFound, unprocessable } from '../../core/errors.js';

export const tagNotFound = () => notFound('Tag');
export const signatureNotFound = () => notFound('Signature');
/** GitalyKeysetPager: a `page_token` that names no tag. */
export const invalidPageToken = (token: string) => unprocessable(`Invalid page token: refs/tags/${token}`);
/** Tags::CreateService's failures, as a service that calls it (Releases::CreateService) answers them. */
export const tagServiceFailed = (message: string) => messageError(400, message);
/** POST .../repository/tags: the spec answers every failure of the tag service with 405 and its message. */
export const tagNotCreated = (message: string) => messageError(405, message);
/** Tags::DestroyService when the tag moved or went while it was being deleted. */
export const tagNotRemoved = () => messageError(400, 'Failed to remove tag');
