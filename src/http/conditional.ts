// `destroy_conditionally!`: a DELETE with If-Unmodified-Since fails with 412 when the
// resource changed after that time.
import type { Context } from './context.js';
import { preconditionFailed } from './errors.js';

export function checkUnmodifiedSince(ctx: Context<unknown>, updatedAt: number): void {
  const header = ctx.request.headers.get('if-unmodified-since');
  if (!header) return;
  const since = Date.parse(header);
  // HTTP dates have whole seconds; anything changed later in that second counts as changed.
  if (Number.isFinite(since) && Math.floor(updatedAt / 1000) * 1000 > since) throw preconditionFailed();
}
