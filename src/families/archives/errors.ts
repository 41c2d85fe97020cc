// What the archive API route answers when a download is refused (lib/api/repositories.rb).
import { messageError } from '../../core/errors.js';

/** The text of Gitlab::RepositoryArchiveRateLimiter, on the API and on the web download. */
export const ARCHIVE_THROTTLED = 'This archive has been requested too many times. Try again later.';

export const archiveThrottled = () => messageError(429, { error: ARCHIVE_THROTTLED });
/** Gitlab::HotlinkingDetector refused the request. */
export const hotlinkingRefused = () => messageError(406, '406 Not Acceptable');
