// The instance's GitLab license (ee/lib/api/license.rb, API::Entities::GitlabLicense). An
// emulator's tier is its license: a Premium or Ultimate world has one license of that plan,
// issued to its first administrator when the world was made and valid for a year; a Free world
// has none. No key can be checked here (GitLab's are signed by GitLab), so every new one is
// refused as GitLab refuses a key it cannot read.
import { messageError, notFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { json } from '../../http/route.js';
import { iso, isoDate } from '../../render/time.js';
import { tvalues } from '../../store/table.js';
import type { User } from '../../store/state.js';
import { defineFamily, route, type Family } from '../define.js';
import type { State } from '../world.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;
/** `User.active`: active, and not one of GitLab's internal users. */
const NON_INTERNAL = new Set(['human', 'project_bot', 'service_account']);

function activeUsers(state: State): number {
  let n = 0;
  for (const u of tvalues(state.users)) if (u.state === 'active' && NON_INTERNAL.has(u.userType)) n++;
  return n;
}

function firstAdmin(state: State): User | undefined {
  for (const u of tvalues(state.users)) if (u.admin) return u;
  return undefined;
}

/** API::Entities::GitlabLicense of the world's license; null when the world is Free. */
function currentLicense(state: State, now: number) {
  const tier = state.instance.tier;
  if (tier === 'free') return null;
  const admin = firstAdmin(state);
  const createdAt = admin?.createdAt ?? now;
  const expiresAt = createdAt + YEAR_MS;
  const users = activeUsers(state);
  return {
    id: 1,
    plan: tier,
    created_at: iso(createdAt),
    starts_at: isoDate(createdAt),
    expires_at: isoDate(expiresAt),
    historical_max: users,
    maximum_user_count: users,
    licensee: { Name: admin?.name ?? 'Administrator', Email: admin?.email ?? null, Company: null },
    add_ons: {},
    expired: isoDate(now) >= isoDate(expiresAt),
    overage: 0,
    // No seat restriction: `restricted?(:active_user_count)` is false.
    user_limit: 0,
  };
}

const withActiveUsers = (state: State, license: ReturnType<typeof currentLicense>) =>
  license && { ...license, active_users: activeUsers(state) };

const licenseRoutes = [
  route({
    method: 'GET', path: '/license', auth: 'admin',
    handler: (ctx) => json(withActiveUsers(ctx.state, currentLicense(ctx.state, ctx.now()))),
  }),
  route({
    method: 'POST', path: '/license', auth: 'admin', params: { license: str().required() },
    handler: () => {
      // License#valid_license: a key GitLab cannot decrypt and verify is refused.
      throw messageError(400, 'The license key is invalid.');
    },
  }),
  route({
    method: 'GET', path: '/license/:id', auth: 'admin', params: { id: int().required() },
    handler: (ctx) => {
      const license = currentLicense(ctx.state, ctx.now());
      if (!license || license.id !== ctx.params.id) throw notFound();
      return json(withActiveUsers(ctx.state, license));
    },
  }),
  route({
    method: 'GET', path: '/licenses', auth: 'admin',
    handler: (ctx) => {
      const license = currentLicense(ctx.state, ctx.now());
      return json(license ? [license] : []);
    },
  }),
];

export const license: Family = defineFamily({ name: 'license', routes: licenseRoutes });
