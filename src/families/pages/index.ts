// GitLab Pages of projects (lib/api/pages.rb) and their custom domains (lib/api/pages_domains.rb):
// a project's maintainers read and change its Pages settings, remove its site and keep its
// domains; administrators list every domain. Nothing is deployed here, so a site has no
// deployments; Pages are served at GitLab's default Pages host, `example.com`.
import { hash53 } from '../../core/hash.js';
import { recordNotFound, validationFailed } from '../../core/errors.js';
import { bool, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { hasProjectRole } from '../../policy/access.js';
import { ACCESS, randomHex, type Project, type User } from '../../store/state.js';
import { emptyTable, tdel, tget, tset, tvalues, type Table } from '../../store/table.js';
import { defineFamily, project, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';

/** Gitlab.config.pages.host's default. */
const PAGES_HOST = 'example.com';

export interface PagesSettings {
  uniqueDomainEnabled: boolean;
  httpsOnly: boolean;
  primaryDomain: string | null;
}

export interface PagesDomain {
  domain: string;
  projectId: number;
  verificationCode: string;
  autoSslEnabled: boolean;
  createdAt: number;
}

export interface PagesSlice {
  /** Project id -> its Pages settings, where they differ from a new project's. */
  pagesSettings: Table<PagesSettings>;
  /** Custom domains by lower-cased name (unique in the instance). */
  pagesDomains: Table<PagesDomain>;
}

declare module '../world.js' {
  interface Slices extends PagesSlice {}
}

/** A new project's: a unique domain (GitLab 17.4+), HTTPS not forced, no primary domain. */
const DEFAULTS: PagesSettings = { uniqueDomainEnabled: true, httpsOnly: false, primaryDomain: null };
const settingsOf = (state: State, p: Project): PagesSettings => tget(state.pagesSettings, p.id) ?? DEFAULTS;

/** read_pages, update_pages, remove_pages: Maintainers. */
const canAdminPages = (s: State, u: User | null, p: Project, now: number) => hasProjectRole(s, u, p, ACCESS.maintainer, now);

function pagesUrl(state: State, p: Project, s: PagesSettings): string {
  const ns = tget(state.namespaces, p.namespaceId)!;
  const top = ns.fullPath.split('/')[0]!.toLowerCase();
  if (s.uniqueDomainEnabled) return `http://${`${p.path}-${hash53(`${p.id}`).slice(0, 6)}`.toLowerCase().slice(0, 63)}.${PAGES_HOST}`;
  const rest = `${ns.fullPath.split('/').slice(1).concat(p.path).join('/')}`;
  return `http://${top}.${PAGES_HOST}/${rest}`;
}

const settingsEntity = (state: State, p: Project) => {
  const s = settingsOf(state, p);
  return { url: pagesUrl(state, p, s), deployments: [], is_unique_domain_enabled: s.uniqueDomainEnabled, force_https: s.httpsOnly, primary_domain: s.primaryDomain };
};

const domainEntity = (d: PagesDomain, withProject: boolean) => ({
  domain: d.domain,
  url: `http://${d.domain}`,
  ...(withProject ? { project_id: d.projectId } : {}),
  verified: false,
  verification_code: d.verificationCode,
  enabled_until: null,
  auto_ssl_enabled: d.autoSslEnabled,
});

/** PagesDomain's validations: a host name, unique, not under the Pages host. */
function validateDomain(state: State, domain: string): void {
  const d = domain.toLowerCase();
  const errors: string[] = [];
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(d)) errors.push('is not a valid hostname');
  else if (tget(state.pagesDomains, d)) errors.push('has already been taken');
  else if (d === PAGES_HOST || d.endsWith(`.${PAGES_HOST}`))
    errors.push(`Subdomains of the Pages root domain ${PAGES_HOST} are reserved and cannot be used as custom Pages domains.`);
  if (errors.length) throw validationFailed({ domain: errors });
}

const ADMIN = project(canAdminPages);
const DOMAIN = { domain: str().required() };

function ownDomain(ctx: Context<unknown>, name: string): PagesDomain {
  const d = tget(ctx.state.pagesDomains, name.toLowerCase());
  if (!d || d.projectId !== ctx.project.id) throw recordNotFound();
  return d;
}

const domainsOf = (state: State, p: Project) => [...tvalues(state.pagesDomains)].filter((d) => d.projectId === p.id).sort((a, b) => a.createdAt - b.createdAt || (a.domain < b.domain ? -1 : 1));

export const pages: Family<PagesSlice> = defineFamily({
  name: 'pages',
  state: () => ({ pagesSettings: emptyTable(), pagesDomains: emptyTable() }),
  routes: [
    route({
      method: 'GET', path: '/projects/:id/pages', auth: 'user', scope: ADMIN,
      handler: (ctx) => json(settingsEntity(ctx.state, ctx.project)),
    }),
    route({
      method: 'PATCH', path: '/projects/:id/pages', auth: 'user', scope: ADMIN,
      params: { pages_unique_domain_enabled: bool(), pages_https_only: bool(), pages_primary_domain: str() },
      handler: (ctx) => {
        const p = ctx.params;
        const old = settingsOf(ctx.state, ctx.project);
        if (p.pages_primary_domain && !domainsOf(ctx.state, ctx.project).some((d) => `http://${d.domain}` === p.pages_primary_domain || d.domain === p.pages_primary_domain))
          throw validationFailed({ pages_primary_domain: ['must be one of the domains of the project'] });
        const next: PagesSettings = {
          uniqueDomainEnabled: p.pages_unique_domain_enabled ?? old.uniqueDomainEnabled,
          httpsOnly: p.pages_https_only ?? old.httpsOnly,
          primaryDomain: p.pages_primary_domain !== undefined ? p.pages_primary_domain || null : old.primaryDomain,
        };
        ctx.update((draft) => tset((draft as State).pagesSettings, ctx.project.id, next));
        return json(settingsEntity(ctx.state, ctx.project));
      },
    }),
    route({
      method: 'DELETE', path: '/projects/:id/pages', auth: 'user', scope: ADMIN,
      // Pages::DeleteService: the site's deployments go (there are none here); settings and domains stay.
      handler: () => noContent(),
    }),
    route({
      method: 'GET', path: '/pages/domains', auth: 'admin', paginated: true,
      handler: (ctx) => json(ctx.paginate([...tvalues(ctx.state.pagesDomains)].sort((a, b) => a.createdAt - b.createdAt)).map((d) => domainEntity(d, true))),
    }),
    route({
      method: 'GET', path: '/projects/:id/pages/domains', auth: 'user', scope: ADMIN, paginated: true,
      handler: (ctx) => json(ctx.paginate(domainsOf(ctx.state, ctx.project)).map((d) => domainEntity(d, false))),
    }),
    route({
      method: 'GET', path: '/projects/:id/pages/domains/:domain', auth: 'user', scope: ADMIN, params: DOMAIN,
      handler: (ctx) => json(domainEntity(ownDomain(ctx, ctx.params.domain), false)),
    }),
    route({
      method: 'POST', path: '/projects/:id/pages/domains', auth: 'user', scope: ADMIN, params: { ...DOMAIN, auto_ssl_enabled: bool().default(false) },
      handler: (ctx) => {
        validateDomain(ctx.state, ctx.params.domain);
        const made = ctx.update((draft) => {
          const d: PagesDomain = { domain: ctx.params.domain.toLowerCase(), projectId: ctx.project.id, verificationCode: randomHex(draft, 32), autoSslEnabled: ctx.params.auto_ssl_enabled, createdAt: ctx.now() };
          tset((draft as State).pagesDomains, d.domain, d);
          return d;
        });
        return created(domainEntity(made, false));
      },
    }),
    route({
      method: 'PUT', path: '/projects/:id/pages/domains/:domain', auth: 'user', scope: ADMIN, params: { ...DOMAIN, auto_ssl_enabled: bool() },
      handler: (ctx) => {
        const d = ownDomain(ctx, ctx.params.domain);
        const next = { ...d, autoSslEnabled: ctx.params.auto_ssl_enabled ?? d.autoSslEnabled };
        ctx.update((draft) => tset((draft as State).pagesDomains, d.domain, next));
        return json(domainEntity(next, false));
      },
    }),
    route({
      method: 'DELETE', path: '/projects/:id/pages/domains/:domain', auth: 'user', scope: ADMIN, params: DOMAIN,
      handler: (ctx) => {
        const d = ownDomain(ctx, ctx.params.domain);
        ctx.update((draft) => void tdel((draft as State).pagesDomains, d.domain));
        return noContent();
      },
    }),
  ],
  forget: {
    project: (draft, id) => {
      const s = draft as State;
      tdel(s.pagesSettings, id);
      for (const d of [...tvalues(s.pagesDomains)]) if (d.projectId === id) tdel(s.pagesDomains, d.domain);
    },
  },
});
