// Paths in the web URLs entities render, escaped as Rails' URL helpers escape them.

/** A path segment: `/` becomes `%2F`, sub-delimiters and `:`/`@` stay as they are. */
export function urlSegment(s: string): string {
  return encodeURIComponent(s).replace(/%(21|24|26|27|28|29|2A|2B|2C|3B|3D|3A|40)/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** A glob (`*path`) parameter, such as a ref in `/-/tree/`: each segment escaped, the slashes kept. */
export const urlPath = (s: string) => s.split('/').map(urlSegment).join('/');
