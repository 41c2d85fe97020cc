// A wiki page's front matter: the YAML block between `---` fences at the start of a markdown page
// (Gitlab::WikiPages::FrontMatterParser), and the block WikiPage#update_front_matter writes
// (`YAML.dump(front_matter) + "---\n"` before the content). Only string values, as the API's
// `front_matter[title]` gives; the scalars are quoted as Psych quotes them.
import type { WikiFormat } from './records.js';

/** A page's text and its front matter. */
export interface PageContent {
  content: string;
  frontMatter: Record<string, string>;
}

/** Strings Psych's scanner reads as something else (null, booleans, numbers, dates) are single-quoted. */
const NOT_A_STRING =
  /^(?:~|null|Null|NULL|yes|true|on|no|false|off|[-+]?(?:0b[01_,]+|0[0-7_,]+|(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|0x[0-9a-fA-F_,]+)|[-+]?(?:[0-9][0-9_,]*)?\.[0-9]*(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|\d{4}-\d\d?-\d\d?(?:(?:[Tt]|\s+)\d\d?:\d\d:\d\d.*)?)$/i;

const single = (v: string) => `'${v.replace(/'/g, "''")}'`;
const double = (v: string) =>
  `"${v.replace(/[\\"\x00-\x1f\x7f]/g, (c) => (c === '\\' || c === '"' ? `\\${c}` : c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`))}"`;

/** The text without its trailing newlines (`/\n+$/` retries from every newline of a long run). */
function withoutTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return text.slice(0, end);
}

/** Whether libyaml may write the string plain. */
const plainAllowed = (v: string) =>
  !/^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(v) && !/\s$/.test(v) && !/: |:$| #|[\x00-\x1f\x7f]/.test(v);

/** Psych's YAMLTree#visit_String: the style it asks for, and libyaml's fallback when plain is not allowed. */
function yamlScalar(value: string): string {
  if (/\n(?!$)/.test(value)) {
    const chomp = value.endsWith('\n\n') ? '+' : value.endsWith('\n') ? '' : '-';
    const body = withoutTrailingNewlines(value);
    return `|${chomp}\n${body.split('\n').map((line) => (line === '' ? '' : `  ${line}`)).join('\n')}`;
  }
  if (value === 'y' || value === 'Y' || value === 'n' || value === 'N') return double(value);
  if (/^[^\p{L}\p{M}\p{N}\p{Pc}][^"]*$/u.test(value)) return double(value);
  if (value === '' || NOT_A_STRING.test(value) || /^0[0-7]*[89]/.test(value)) return single(value);
  if (plainAllowed(value)) return value;
  return /[\x00-\x1f\x7f]/.test(value) ? double(value) : single(value);
}

/** WikiPage#serialize_front_matter: nothing for an empty hash, else the YAML document and a closing fence. */
export function serializeFrontMatter(frontMatter: Record<string, string>): string {
  const keys = Object.keys(frontMatter);
  if (keys.length === 0) return '';
  return `---\n${keys.map((k) => `${k}: ${yamlScalar(frontMatter[k]!)}`).join('\n')}\n---\n`;
}

function unquote(text: string): string {
  if (/^'.*'$/s.test(text)) return text.slice(1, -1).replace(/''/g, "'");
  if (/^".*"$/s.test(text)) {
    try {
      return JSON.parse(text.replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1')) as string;
    } catch {
      return text.slice(1, -1);
    }
  }
  return text;
}

/** The front matter of a markdown page (`key: value` lines, quoted scalars and literal blocks) and the content after it. */
export function splitFrontMatter(format: WikiFormat, raw: string): PageContent {
  const frontMatter: Record<string, string> = Object.create(null);
  const m = format === 'markdown' ? /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(raw) : null;
  if (!m) return { content: raw, frontMatter };
  const lines = m[1]!.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const kv = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(lines[i]!);
    if (!kv) return { content: raw, frontMatter: Object.create(null) };
    const block = /^\|([-+]?)$/.exec(kv[2]!.trim());
    if (block) {
      const body: string[] = [];
      while (i + 1 < lines.length && (lines[i + 1] === '' || lines[i + 1]!.startsWith('  '))) body.push(lines[++i]!.slice(2));
      const text = withoutTrailingNewlines(body.join('\n'));
      frontMatter[kv[1]!] = block[1] === '-' ? text : `${text}\n`;
      continue;
    }
    frontMatter[kv[1]!] = unquote(kv[2]!.trim());
  }
  return { content: raw.slice(m[0].length), frontMatter };
}
