// Names and paths of namespaces and projects (lib/gitlab/path_regex.rb, app/models/project.rb).
import type { State } from '../store/state.js';
import { tget } from '../store/table.js';

export const PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
export const PROJECT_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.";
export const GROUP_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";

const RESERVED_TOP_LEVEL = new Set([
  '-', '.well-known', '404.html', '422.html', '500.html', '502.html', '503.html', 'admin', 'api', 'apple-touch-icon.png',
  'assets', 'dashboard', 'deploy.html', 'explore', 'favicon.ico', 'favicon.png', 'files', 'groups', 'health_check', 'help',
  'import', 'jwt', 'login', 'oauth', 'profile', 'projects', 'public', 'robots.txt', 's', 'search', 'sitemap', 'sitemap.xml',
  'slash-command-logo.png', 'snippets', 'unsubscribes', 'uploads', 'users', 'v2',
]);

export function isValidPath(path: string): boolean {
  return /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/.test(path) && !/\.(git|atom)$/.test(path);
}

export function isReservedTopLevel(path: string): boolean {
  return RESERVED_TOP_LEVEL.has(path.toLowerCase());
}

export function isValidProjectName(name: string): boolean {
  return /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Extended_Pictographic}_.+\- ]*$/u.test(name);
}

export function isValidGroupName(name: string): boolean {
  return /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Extended_Pictographic}_.()\- ]*$/u.test(name);
}

/** A path derived from a name, as GitLab does when only `name` is given. */
export function pathFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/-{2,}/g, '-');
}

export function isPathTaken(state: State, fullPath: string): boolean {
  return tget(state.paths, fullPath.toLowerCase()) !== undefined;
}
