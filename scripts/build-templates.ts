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

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const templates = readTemplates();
  writeFileSync(OUTPUT_FILE, renderModule(templates));
  console.log(`wrote ${templates.length} templates to ${OUTPUT_FILE}`);
}
