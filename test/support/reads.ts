// Every read route of the REST API, filled with the ids, names and paths a world holds: what two
// emulators must answer alike when one was seeded with the other's export.
import { API_ROUTES } from '../../src/families/registry.js';
import type { Emulator } from '../../src/index.js';
import { tentries, tvalues } from '../../src/store/table.js';

export const ORIGIN = 'https://gitlab.example.com';

/** Headers that say when or how fast an answer was made, not what it says. */
const VOLATILE = new Set(['date', 'x-runtime', 'x-request-id', 'x-gitlab-meta', 'ratelimit-reset', 'ratelimit-resettime']);

/** Candidate values of a route's parameters, from what the world holds. */
function candidates(e: Emulator): (route: string, name: string) => string[] {
  const s = e.state;
  const projects = [...tvalues(s.projects)].map((p) => String(p.id));
  const groups = [...tvalues(s.namespaces)].filter((n) => n.kind === 'group').map((n) => String(n.id));
  const users = [...tvalues(s.users)].map((u) => String(u.id));
  const branches = new Set<string>(['main']);
  const tags = new Set<string>();
  const shas = new Set<string>();
  for (const [key, repo] of tentries(s.repositories)) {
    if (Number(key) <= 0) continue;
    for (const [name, sha] of tentries(repo.branches)) {
      branches.add(name);
      shas.add(sha);
    }
    for (const [name] of tentries(repo.tags)) tags.add(name);
  }
  const small = ['1', '2', '3'];
  const refs = [...branches, ...tags];
  return (route, name) => {
    switch (name) {
      case 'id':
        return route.startsWith('/projects') ? projects : route.startsWith('/groups') ? groups : route.startsWith('/users') || route.startsWith('/user/') ? users : small;
      case 'user_id':
        return users;
      case 'group_id':
        return groups;
      case 'sha':
        return [...shas].slice(0, 3);
      case 'ref':
      case 'ref_name':
      case 'branch':
        return refs.slice(0, 3);
      case 'tag_name':
        return tags.size ? [...tags].slice(0, 2) : ['v1.0.0'];
      case 'name':
        return [...refs.slice(0, 2), 'bug'];
      case 'file_path':
        return ['README.md', 'src%2Fapp.ts', 'notes.txt'];
      case 'slug':
        return ['home', 'guide'];
      case 'key':
        return ['DEPLOY_TOKEN', 'REGION', 'color'];
      case 'secret':
      case 'filename':
      case 'file_name':
        return ['x'];
      default:
        return small;
    }
  };
}

/** The paths of every GET route of the REST API, each filled up to `perRoute` ways. */
export function readPaths(e: Emulator, perRoute = 6): string[] {
  const pick = candidates(e);
  const out: string[] = [];
  for (const r of API_ROUTES) {
    if (r.method !== 'GET') continue;
    // A parameter may carry a pattern (`:id{[0-9]+}`): it is part of the name's segment.
    const pattern = r.path.replace(/\{[^}]*\}/g, '');
    const names = [...pattern.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
    let fills: Record<string, string>[] = [{}];
    for (const name of names) {
      const values = pick(pattern, name);
      fills = fills.flatMap((f) => values.map((v) => ({ ...f, [name]: v })));
    }
    // The fills spread over the product rather than its first corner.
    const step = Math.max(1, Math.floor(fills.length / perRoute));
    for (let i = 0; i < fills.length && out.length < 1e6; i += step) {
      const fill = fills[i]!;
      out.push('/api/v4' + pattern.replace(/:([a-z_]+)/g, (_, n: string) => fill[n]!));
      if ((i / step) + 1 >= perRoute) break;
    }
  }
  return out;
}

/** An answer as the comparison sees it: status, headers that describe the content, body; the origin given as `<origin>`. */
export async function answer(e: Emulator, path: string, token: string | null, origin = ORIGIN): Promise<unknown> {
  const res = await e.handle(new Request(origin + path, { headers: token ? { 'PRIVATE-TOKEN': token } : {} }));
  return normalize(res, origin);
}

/**
 * `across`: the answers compared come from two origins, so what is made of the URL (the host in
 * `container_registry_image_prefix`, and so the length and the ETag) differs by design.
 */
export async function normalize(res: Response, origin: string, across = false): Promise<unknown> {
  const host = new URL(origin).host;
  const text = (await res.text()).split(origin).join('<origin>').split(host).join('<host>');
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (VOLATILE.has(k) || (across && (k === 'etag' || k === 'content-length'))) return;
    headers[k] = v.split(origin).join('<origin>');
  });
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  return { status: res.status, headers, body };
}

/** The first read the two emulators answer differently, in the same order on both (reads change a world too: activity), or undefined. */
export async function firstDifference(a: Emulator, b: Emulator, paths: readonly string[], tokens: readonly (string | null)[]): Promise<{ path: string; token: string | null; a: unknown; b: unknown } | undefined> {
  for (const token of tokens) {
    for (const path of paths) {
      const x = await answer(a, path, token);
      const y = await answer(b, path, token);
      if (JSON.stringify(x) !== JSON.stringify(y)) return { path, token, a: x, b: y };
    }
  }
  return undefined;
}
