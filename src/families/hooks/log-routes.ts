// lib/api/hooks/events.rb and resend_hook.rb: a project's or group's hook lists what it sent in
// the last seven days (WebHooks::WebHookLogsFinder), newest first, by status, and sends one again.
import { arr, int, str } from '../../http/params.js';
import { created, json } from '../../http/route.js';
import { route } from '../define.js';
import { hookLogEntity } from './entity.js';
import { hookLogNotFound } from './errors.js';
import { foundHook, type HookPlace } from './routes.js';
import { hookLogs, resendDelivery } from './queue.js';
import { checkHookRateLimit } from './test-routes.js';

/** Rack::Utils::HTTP_STATUS_CODES' codes and the three categories. */
const STATUS_CODES = [
  100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409,
  410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505, 506, 507, 508, 511,
].map(String);
const STATUSES = [...STATUS_CODES, 'successful', 'client_failure', 'server_failure'];

/** Whether a log's status is one of those asked for (a code, or a category of codes). */
function statusMatches(status: string | null, asked: readonly string[]): boolean {
  const code = Number(status);
  return asked.some((a) =>
    a === 'successful' ? code >= 200 && code < 300 : a === 'client_failure' ? code >= 400 && code < 500 : a === 'server_failure' ? code >= 500 && code < 600 : a === status,
  );
}

export function logRoutes(places: readonly HookPlace[]) {
  return places.flatMap((place) => {
    const common = { auth: place.auth, ...(place.scope ? { scope: place.scope } : {}), ...(place.tier ? { tier: place.tier } : {}) } as const;
    return [
      route({
        method: 'GET', path: `${place.base}/:hook_id/events`, ...common, paginated: true,
        params: { hook_id: int().required(), status: arr(str().values(STATUSES), { commaSeparated: true }), per_page: int().default(20).where((n) => n >= 1 && n <= 20) },
        handler: (ctx) => {
          const hook = foundHook(ctx, place, ctx.params.hook_id);
          const asked = ctx.params.status ?? [];
          const logs = hookLogs(ctx.state, hook.id, ctx.now()).filter((d) => asked.length === 0 || statusMatches(d.responseStatus, asked));
          return json(ctx.paginate(logs).map(hookLogEntity));
        },
      }),
      route({
        method: 'POST', path: `${place.base}/:hook_id/events/:hook_log_id/resend`, ...common,
        params: { hook_id: int().required(), hook_log_id: int().required() },
        handler: (ctx) => {
          const hook = foundHook(ctx, place, ctx.params.hook_id);
          checkHookRateLimit(ctx, 'web_hook_event_resend', hook);
          const log = hookLogs(ctx.state, hook.id, ctx.now()).find((d) => d.id === ctx.params.hook_log_id);
          if (!log) throw hookLogNotFound();
          const again = ctx.update(resendDelivery(hook, log, ctx.now()));
          return created({ response_status: again.responseStatus });
        },
      }),
    ];
  });
}
