// Dockerfile, .gitlab-ci.yml and license templates (lib/api/templates.rb): GET
// /templates/dockerfiles[/:name], /templates/gitlab_ci_ymls[/:name], /templates/licenses[/:name].
// Entities::TemplatesList ({key, name}) lists, Entities::Template ({name, content}) answers one;
// licenses render as Entities::License (lib/api/entities/license.rb), with the placeholders of
// the text filled in as parsed_license_template does.
import { notFound, routeNotFound } from '../../core/errors.js';
import { bool, str } from '../../http/params.js';
import { json } from '../../http/route.js';
import { route } from '../define.js';
import type { FileTemplate, LicenseTemplate } from './catalog.js';

/** The templates (some 220 KB of text), a chunk loaded at the first request for one, not at the package's import. */
const catalog = () => import('./catalog.js');

/** The route's `requirements: { name: /[\w\.-]+/ }`, on the path as sent. */
const NAME_REQUIREMENT = /^[A-Za-z0-9_.-]+$/;

function rawLastSegment(pathname: string): string {
  const path = pathname.replace(/\/+$/, '');
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Licensee's home, where a license's `html_url` points. */
const LICENSEE_DOMAIN = 'http://choosealicense.com';

// API::Templates' placeholders: `[year]`, `[project]` and `[fullname]` in any bracket pair.
const YEAR_TEMPLATE = /[<{[](year|yyyy)[>}\]]/gi;
const PROJECT_TEMPLATE = /[<{[](project|description|one\sline\s.+\swhat\sit\sdoes\.)[>}\]]/gi;
const FULLNAME_TEMPLATE = /[<{[](fullname|name\sof\s(author|copyright\sowner))[>}\]]/gi;

/** Entities::LicenseBasic and Entities::License. */
function licenseEntity(l: LicenseTemplate, content = l.content) {
  return {
    key: l.key,
    name: l.title,
    nickname: l.nickname,
    html_url: `${LICENSEE_DOMAIN}/licenses/${l.key}/`,
    source_url: `https://spdx.org/licenses/${l.spdxId}.html`,
    popular: l.featured,
    description: l.description,
    conditions: l.conditions,
    permissions: l.permissions,
    limitations: l.limitations,
    content,
  };
}

/** parsed_license_template: the year, then the project, then the full name (the parameter, else the caller's name). */
function fillLicense(content: string, year: number, project: string | undefined, fullname: string | undefined): string {
  let out = content.replace(YEAR_TEMPLATE, String(year));
  // A replacement string, not a pattern: `$` in a name stays as it is.
  if (project) out = out.replace(PROJECT_TEMPLATE, () => project);
  if (fullname) out = out.replace(FULLNAME_TEMPLATE, () => fullname);
  return out;
}

/** The two routes of one kind of file template: the list and one by name (`not_found!` names the kind, singular). */
function fileTemplateRoutes(kind: string, singular: string, load: () => Promise<readonly FileTemplate[]>) {
  return [
    route({
      method: 'GET', path: `/templates/${kind}`, cacheable: true, auth: 'none', paginated: true,
      handler: async (ctx) => json(ctx.paginate(await load()).map((t) => ({ key: t.key, name: t.name }))),
    }),
    route({
      method: 'GET', path: `/templates/${kind}/:name`, cacheable: true, auth: 'none', params: { name: str().required() },
      handler: async (ctx) => {
        if (!NAME_REQUIREMENT.test(rawLastSegment(ctx.url.pathname))) throw routeNotFound();
        const template = (await load()).find((t) => t.key === ctx.params.name);
        if (!template) throw notFound(singular);
        return json({ name: template.name, content: template.content });
      },
    }),
  ];
}

export const catalogRoutes = [
  ...fileTemplateRoutes('dockerfiles', 'dockerfile', async () => (await catalog()).DOCKERFILE_TEMPLATES),
  ...fileTemplateRoutes('gitlab_ci_ymls', 'gitlab_ci_yml', async () => (await catalog()).GITLAB_CI_YML_TEMPLATES),
  route({
    method: 'GET', path: '/templates/licenses', cacheable: true, auth: 'none', paginated: true,
    params: { popular: bool() },
    handler: async (ctx) => {
      // `declared(params).popular.present?`: only `true` narrows the list to the featured ones.
      const shown = (await catalog()).LICENSE_TEMPLATES.filter((l) => !l.hidden && (ctx.params.popular !== true || l.featured));
      return json(ctx.paginate(shown).map((l) => licenseEntity(l)));
    },
  }),
  route({
    method: 'GET', path: '/templates/licenses/:name', params: { name: str().required(), project: str(), fullname: str() },
    handler: async (ctx) => {
      if (!NAME_REQUIREMENT.test(rawLastSegment(ctx.url.pathname))) throw routeNotFound();
      // Licensee::License.find: by key, case-insensitively, hidden ones too.
      const license = (await catalog()).LICENSE_TEMPLATES.find((l) => l.key === ctx.params.name.toLowerCase());
      if (!license) throw notFound('License');
      const year = new Date(ctx.now()).getUTCFullYear();
      const fullname = ctx.params.fullname || ctx.user?.name;
      return json(licenseEntity(license, fillLicense(license.content, year, ctx.params.project, fullname)));
    },
  }),
];
