// `destroy_conditionally!`: a DELETE with If-Unmodified-Since fails with 412 when the
// resource changed after that time.
import type { RequestView } from './context.js';
import { preconditionFailed } from '../core/errors.js';

export function checkUnmodifiedSince(ctx: RequestView, updatedAt: number): void {
  const header = ctx.request.headers.get('if-unmodified-since');
  if (!header) return;
  const since = Date.parse(header);
  // As `check_unmodified_since!` compares: the record's time keeps its milliseconds while an HTTP
  // date has whole seconds, so a change later within that second counts as a change.
  if (Number.isFinite(since) && updatedAt > since) throw preconditionFailed();
}
