// Builds src/families/templates/data.ts from the .gitignore templates under fixtures/gitignore/, so
// the core can serve them without a file system. Run: `npx tsx scripts/build-templates.ts`.
//
// Layout and order follow GitLab (lib/gitlab/template/gitignore_template.rb, base_template.rb,
// finders/global_template_finder.rb): the "Languages" category is the folder itself, the
// "Global" category its Global/ subfolder; only `*.gitignore` files count (a Ruby glob, so
// hidden files do not); each category is sorted by name, byte-wise, and Languages come first.
// A template's key and name are both the file name without `.gitignore`.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface TemplateFile {
  key: string;
  name: string;
  content: string;
}

const EXTENSION = '.gitignore';
/** Category folders in GitLab's order; '' is the folder itself. */
const CATEGORIES = ['', 'Global'] as const;

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const FIXTURE_DIR = join(ROOT, 'fixtures', 'gitignore');
export const OUTPUT_FILE = join(ROOT, 'src', 'families', 'templates', 'data.ts');

/** Ruby's String#<=>: byte-wise over UTF-8. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Every template, in the order GitLab lists them. */
export function readTemplates(dir: string = FIXTURE_DIR): TemplateFile[] {
  const out: TemplateFile[] = [];
  for (const category of CATEGORIES) {
    const folder = category ? join(dir, category) : dir;
    const names = readdirSync(folder)
      .filter((f) => f.endsWith(EXTENSION) && !f.startsWith('.') && statSync(join(folder, f)).isFile())
      .map((f) => f.slice(0, -EXTENSION.length))
      .sort(byteOrder);
    for (const name of names) {
      out.push({ key: name, name, content: readFileSync(join(folder, name + EXTENSION), 'utf8') });
    }
  }
  return out;
}

function quote(s: string): string {
  const body = s.replace(/[\\'\n\r\t\u2028\u2029]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\\\';
      case "'":
        return "\\'";
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      default:
        return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    }
  });
  return `'${body}'`;
}

/** The text of src/families/templates/data.ts for `templates`. */
export function renderModule(templates: readonly TemplateFile[]): string {
  const lines = [
    '// Generated from fixtures/gitignore/ by scripts/build-templates.ts: do not edit by hand.',
    '// Regenerate with `npx tsx scripts/build-templates.ts` after changing a template.',
    '',
    'export interface GitignoreTemplate {',
    '  readonly key: string;',
    '  readonly name: string;',
    '  readonly content: string;',
    '}',
    '',
    '/** In GitLab\'s order: the language templates by name, then the Global/ ones by name. */',
    'export const GITIGNORE_TEMPLATES: readonly GitignoreTemplate[] = [',
  ];
  for (const t of templates) {
    lines.push('  {', `    key: ${quote(t.key)},`, `    name: ${quote(t.name)},`, `    content: ${quote(t.content)},`, '  },');
  }
  lines.push('];', '');
  return lines.join('\n');
}

// ---- Dockerfile and .gitlab-ci.yml templates, and the license templates ----
//
// Dockerfiles (lib/gitlab/template/dockerfile_template.rb): vendor/Dockerfile/*.Dockerfile, one
// "General" category. .gitlab-ci.yml (gitlab_ci_yml_template.rb): lib/gitlab/ci/templates/, the
// "General" folder itself then Pages/ (the Verify/ and autodeploy/ folders are not bundled), each
// sorted by name; `.latest.` files are never listed. Licenses come from the licensee gem
// (vendor/choosealicense.com/_licenses/*.txt): YAML front matter then the text; GitLab lists the
// ones not `hidden`, sorted by key. Each is a small but real subset of GitLab's own files.

export const DOCKERFILE_DIR = join(ROOT, 'fixtures', 'dockerfiles');
export const GITLAB_CI_DIR = join(ROOT, 'fixtures', 'gitlab-ci');
export const LICENSE_DIR = join(ROOT, 'fixtures', 'licenses');
export const CATALOG_FILE = join(ROOT, 'src', 'families', 'templates', 'catalog.ts');

/** The templates of one kind, in GitLab's order: by category, each sorted by name, byte-wise. */
export function readGlobalTemplates(dir: string, extension: string, categories: readonly string[], excluded: readonly RegExp[] = []): TemplateFile[] {
  const out: TemplateFile[] = [];
  for (const category of categories) {
    const folder = category ? join(dir, category) : dir;
    const names = readdirSync(folder)
      .filter((f) => f.endsWith(extension) && !f.startsWith('.') && statSync(join(folder, f)).isFile() && !excluded.some((re) => re.test(f)))
      .map((f) => f.slice(0, -extension.length))
      .sort(byteOrder);
    for (const name of names) out.push({ key: name, name, content: readFileSync(join(folder, name + extension), 'utf8') });
  }
  return out;
}

export interface LicenseFile {
  key: string;
  title: string;
  spdxId: string;
  nickname: string | null;
  featured: boolean;
  hidden: boolean;
  description: string | null;
  conditions: string[];
  permissions: string[];
  limitations: string[];
  content: string;
}

/** The front matter's top-level scalars and lists (the only shapes licensee's files use for what GitLab reads). */
function frontMatter(yaml: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  let list: string[] | null = null;
  for (const line of yaml.split('\n')) {
    const item = /^\s+- (.*)$/.exec(line);
    if (item && list) {
      list.push(item[1]!.trim());
      continue;
    }
    const pair = /^([A-Za-z_-]+):(?: (.*))?$/.exec(line);
    if (!pair) continue;
    if (pair[2] === undefined || pair[2].trim() === '') {
      list = [];
      out[pair[1]!] = list;
    } else {
      list = null;
      out[pair[1]!] = pair[2].trim();
    }
  }
  return out;
}

/** Every bundled license, by key; `hidden` as licensee reads it (true unless the file says false). */
export function readLicenses(dir: string = LICENSE_DIR): LicenseFile[] {
  const keys = readdirSync(dir).filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -4).toLowerCase()).sort(byteOrder);
  return keys.map((key) => {
    const raw = readFileSync(join(dir, `${key}.txt`), 'utf8');
    // licensee's /\A(---\n.*\n---\n+)?(.*)/m: the front matter runs to the last `---` line.
    const m = /^(---\n[\s\S]*\n---\n+)?([\s\S]*)$/.exec(raw)!;
    const meta = frontMatter(m[1] ?? '');
    const str = (k: string) => (typeof meta[k] === 'string' ? (meta[k] as string) : null);
    const list = (k: string) => (Array.isArray(meta[k]) ? (meta[k] as string[]) : []);
    return {
      key,
      title: str('title') ?? key,
      spdxId: str('spdx-id') ?? key,
      nickname: str('nickname'),
      featured: str('featured') === 'true',
      hidden: str('hidden') !== 'false',
      description: str('description'),
      conditions: list('conditions'),
      permissions: list('permissions'),
      limitations: list('limitations'),
      content: m[2] ?? '',
    };
  });
}

/** The text of src/families/templates/catalog.ts. */
export function renderCatalog(dockerfiles: readonly TemplateFile[], gitlabCiYmls: readonly TemplateFile[], licenses: readonly LicenseFile[]): string {
  const lines = [
    '// Generated from fixtures/dockerfiles/, fixtures/gitlab-ci/ and fixtures/licenses/ by scripts/build-templates.ts: do not edit by hand.',
    '// Regenerate with `npx tsx scripts/build-templates.ts` after changing a template.',
    '',
    'export interface FileTemplate {',
    '  readonly key: string;',
    '  readonly name: string;',
    '  readonly content: string;',
    '}',
    '',
    'export interface LicenseTemplate {',
    '  readonly key: string;',
    '  readonly title: string;',
    '  readonly spdxId: string;',
    '  readonly nickname: string | null;',
    '  readonly featured: boolean;',
    '  readonly hidden: boolean;',
    '  readonly description: string | null;',
    '  readonly conditions: readonly string[];',
    '  readonly permissions: readonly string[];',
    '  readonly limitations: readonly string[];',
    '  readonly content: string;',
    '}',
    '',
  ];
  const files = (name: string, doc: string, list: readonly TemplateFile[]) => {
    lines.push(`/** ${doc} */`, `export const ${name}: readonly FileTemplate[] = [`);
    for (const t of list) lines.push('  {', `    key: ${quote(t.key)},`, `    name: ${quote(t.name)},`, `    content: ${quote(t.content)},`, '  },');
    lines.push('];', '');
  };
  files('DOCKERFILE_TEMPLATES', 'vendor/Dockerfile, by name.', dockerfiles);
  files('GITLAB_CI_YML_TEMPLATES', 'lib/gitlab/ci/templates: the General ones by name, then the Pages ones by name.', gitlabCiYmls);
  lines.push('/** licensee\'s licenses, by key. */', 'export const LICENSE_TEMPLATES: readonly LicenseTemplate[] = [');
  for (const l of licenses) {
    const strs = (a: readonly string[]) => `[${a.map(quote).join(', ')}]`;
    lines.push(
      '  {',
      `    key: ${quote(l.key)},`,
      `    title: ${quote(l.title)},`,
      `    spdxId: ${quote(l.spdxId)},`,
      `    nickname: ${l.nickname === null ? 'null' : quote(l.nickname)},`,
      `    featured: ${l.featured},`,
      `    hidden: ${l.hidden},`,
      `    description: ${l.description === null ? 'null' : quote(l.description)},`,
      `    conditions: ${strs(l.conditions)},`,
      `    permissions: ${strs(l.permissions)},`,
      `    limitations: ${strs(l.limitations)},`,
      `    content: ${quote(l.content)},`,
      '  },',
    );
  }
  lines.push('];', '');
  return lines.join('\n');
}

/** The catalog as the fixtures hold it now. */
export function buildCatalog(): string {
  return renderCatalog(
    readGlobalTemplates(DOCKERFILE_DIR, '.Dockerfile', ['']),
    readGlobalTemplates(GITLAB_CI_DIR, '.gitlab-ci.yml', ['', 'Pages'], [/\.latest\./]),
    readLicenses(),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const templates = readTemplates();
  writeFileSync(OUTPUT_FILE, renderModule(templates));
  console.log(`wrote ${templates.length} templates to ${OUTPUT_FILE}`);
  writeFileSync(CATALOG_FILE, buildCatalog());
  console.log(`wrote the Dockerfile, .gitlab-ci.yml and license templates to ${CATALOG_FILE}`);
}
