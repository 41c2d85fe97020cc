// Grape's `file_path: true` validator (API::Validations::Validators::FilePath with
// Gitlab::PathTraversal): shared by every route that takes a path in the repository or a release.
import { grapeError } from '../core/errors.js';

/** CGI.unescape: `+` is a space and only well-formed `%XX` runs decode. */
function cgiUnescape(text: string): string {
  return text.replace(/\+/g, ' ').replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    return new TextDecoder().decode(bytes);
  });
}

/**
 * No `.`/`..` segments, no newline, nothing encoded twice, and no absolute path unless the
 * route allows a leading separator. Returns the path to look up (leading separators dropped).
 */
export function validFilePath(name: string, path: string, opts: { allowInitialSeparator?: boolean } = {}): string {
  const invalid = () => grapeError(400, `${name} should be a valid file path`);
  const decoded = cgiUnescape(path);
  if (decoded !== cgiUnescape(decoded)) throw invalid();
  if (/(^\.{1,2}$|^\.\.[/\\]|[/\\]\.\.$|[/\\]\.\.[/\\]|\n)/.test(decoded)) throw invalid();
  if (path.startsWith('/')) {
    if (!opts.allowInitialSeparator) throw invalid();
    return path.replace(/^\/+/, '');
  }
  return path;
}
