// What the file routes answer when a request is refused (lib/api/files.rb).
import { grapeError, messageError } from '../../core/errors.js';

/** Grape's String coercion of `content` failed (an array or a hash was sent). */
export const contentInvalid = () => grapeError(400, 'content is invalid');
export const rangeStartAfterEnd = () => messageError(400, 'range[start] must be less than or equal to range[end]');
export const rangeOutsideFile = () => messageError(400, 'range is outside of the file length');

/** check_rate_limit_for_blob: a large blob read through the JSON route too often. */
export const largeBlobThrottled = () =>
  messageError(429, {
    error:
      "The requested blob is over the threshold size of 10485760.\nAccess this blob using '/projects/:id/repository/files/:file_path/raw' to avoid this error.\n",
  });
