// File.fnmatch?(pattern, path, FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB), as `rules:changes`,
// `rules:exists`, `only:changes` and wildcard `include:local` match paths: `*` and `?` stop at a
// slash, `**/` spans directories, `[...]` is a class, `{a,b}` alternatives; dot files match.

const cache = new Map<string, RegExp>();

function escape(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

function translate(glob: string): string {
  let out = '';
  let i = 0;
  let braces = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*' && (i === 0 || glob[i - 1] === '/') && glob[i + 2] === '/') {
        out += '(?:[^/]*/)*';
        i += 3;
        continue;
      }
      while (glob[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        let body = glob.slice(i + 1, end);
        const negate = body.startsWith('!') || body.startsWith('^');
        if (negate) body = body.slice(1);
        out += `[${negate ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/]/g, '\\]')}]`;
        i = end;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else if (c === '\\' && i + 1 < glob.length) {
      i++;
      out += escape(glob[i]!);
    } else out += escape(c);
    i++;
  }
  if (braces > 0) return translate(glob.replace(/[{}]/g, (b) => `\\${b}`));
  return out;
}

export function globMatch(glob: string, path: string): boolean {
  let re = cache.get(glob);
  if (!re) {
    try {
      re = new RegExp(`^${translate(glob)}$`, 's');
    } catch {
      re = /(?!)/;
    }
    if (cache.size > 1000) cache.clear();
    cache.set(glob, re);
  }
  return re.test(path);
}
