// Names and paths of namespaces and projects (lib/gitlab/path_regex.rb, lib/gitlab/regex.rb,
// app/models/project.rb, app/models/namespace.rb).
import type { Namespace, Project, CoreState } from '../store/state.js';
import { tget } from '../store/table.js';

export const PROJECT_PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
export const NAMESPACE_PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";
/** Gitlab::Regex.oci_repository_path_regex_message: checked on every new or changed path. */
export const OCI_PATH_MESSAGE =
  "can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'.";
export const PROJECT_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.";
export const GROUP_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";

export const MAX_LENGTH = 255;
export const tooLong = (max: number) => `is too long (maximum is ${max} characters)`;

const RESERVED_TOP_LEVEL = new Set([
  '-', '.well-known', '404.html', '422.html', '500.html', '502.html', '503.html', 'admin', 'api', 'apple-touch-icon.png',
  'assets', 'dashboard', 'deploy.html', 'explore', 'favicon.ico', 'favicon.png', 'files', 'groups', 'health_check', 'help',
  'import', 'jwt', 'login', 'oauth', 'profile', 'projects', 'public', 'robots.txt', 's', 'search', 'sitemap', 'sitemap.xml',
  'slash-command-logo.png', 'snippets', 'unsubscribes', 'uploads', 'users', 'v2',
]);

// Ruby's \p{Alnum} is letters, marks and decimal digits; U+00A9..U+1F9FF stands for emoji.
// Made at their first use, and only for a name the ASCII forms (a part of what they accept) do not
// take: building these Unicode classes cost about 1 ms each, at the import and at the first seed.
let projectName: RegExp | undefined;
let groupName: RegExp | undefined;
const PROJECT_NAME = () => (projectName ??= new RegExp('^[\\p{L}\\p{M}\\p{Nd}\\u{00A9}-\\u{1F9FF}_][\\p{L}\\p{M}\\p{Nd}\\p{Pd}+\\u{00A9}-\\u{1F9FF}_. ]*$', 'u'));
const GROUP_NAME = () => (groupName ??= new RegExp('^[\\p{L}\\p{M}\\p{Nd}\\u{00A9}-\\u{1F9FF}_][\\p{L}\\p{M}\\p{Nd}\\p{Pd}\\u{00A9}-\\u{1F9FF}_(). ]*$', 'u'));
const ASCII_PROJECT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_+. -]*$/;
const ASCII_GROUP_NAME = /^[A-Za-z0-9_][A-Za-z0-9_(). -]*$/;
const NO_SUFFIX = /\.(git|atom)$/;
const PROJECT_PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/;
const NAMESPACE_PATH = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])$/;
const OCI_PATH = /^[a-zA-Z0-9]+(?:[._-][a-zA-Z0-9]+)*$/;

/** Gitlab::PathRegex.project_path_format_regex. */
export function isValidProjectPath(path: string): boolean {
  return PROJECT_PATH.test(path) && !NO_SUFFIX.test(path);
}

/** Gitlab::PathRegex.namespace_format_regex: like a project path, but not ending in '.'. */
export function isValidNamespacePath(path: string): boolean {
  return NAMESPACE_PATH.test(path) && !NO_SUFFIX.test(path);
}

export function isOciPath(path: string): boolean {
  return OCI_PATH.test(path);
}

export function isReservedTopLevel(path: string): boolean {
  return RESERVED_TOP_LEVEL.has(path.toLowerCase());
}

export function isValidProjectName(name: string): boolean {
  return ASCII_PROJECT_NAME.test(name) || PROJECT_NAME().test(name);
}

export function isValidGroupName(name: string): boolean {
  return ASCII_GROUP_NAME.test(name) || GROUP_NAME().test(name);
}

/** Rails' `String#parameterize`: ASCII, words joined by '-', lower case. */
export function parameterize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9\-_]+/gi, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

/**
 * The path GitLab derives when only `name` is given (Projects::CreateService): the name itself
 * when it is a valid path, else the name parameterized ("Foo Project" -> "foo-project").
 */
export function pathFromName(name: string): string {
  return isValidProjectPath(name) ? name : parameterize(name);
}

export function isPathTaken(state: CoreState, fullPath: string): boolean {
  return tget(state.paths, fullPath.toLowerCase()) !== undefined;
}

/**
 * `:id` as GitLab reads it (lib/api/helpers.rb find_project): a number is an id; anything else
 * is a full path, and for projects only a path with a `/` can name one.
 */
export function projectByIdOrPath(state: CoreState, id: string | number): Project | undefined {
  const text = String(id);
  if (/^-?\d+$/.test(text)) return tget(state.projects, Number(text));
  if (!text.includes('/')) return undefined;
  const entry = tget(state.paths, text.toLowerCase());
  return entry?.kind === 'project' ? tget(state.projects, entry.id) : undefined;
}

/** A group's or user's namespace by id or full path (find_group, find_namespace). */
export function namespaceByIdOrPath(state: CoreState, id: string | number): Namespace | undefined {
  const text = String(id);
  if (/^-?\d+$/.test(text)) return tget(state.namespaces, Number(text));
  const entry = tget(state.paths, text.toLowerCase());
  return entry?.kind === 'namespace' ? tget(state.namespaces, entry.id) : undefined;
}

/** A project's full path: its namespace's, then its own. */
export function projectFullPath(state: CoreState, project: Project): string {
  const ns = tget(state.namespaces, project.namespaceId);
  return ns ? `${ns.fullPath}/${project.path}` : project.path;
}
