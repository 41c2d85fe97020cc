// Rendered JSON of an entity, kept per immutable record and per view. A record that changes is
// a new object, so a stale entry is never found; `deps` names the other records the rendering
// read (namespace, owner, viewer), compared by identity.
import { hash53 } from '../core/hash.js';

export interface Fragment {
  json: string;
  hash: string;
}

interface Entry {
  deps: readonly unknown[];
  fragment: Fragment;
}

const cache = new WeakMap<object, Map<string, Entry>>();
const MAX_VIEWS_PER_RECORD = 16;

const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function cachedJson(record: object, view: string, deps: readonly unknown[], render: () => unknown): Fragment {
  let views = cache.get(record);
  const hit = views?.get(view);
  if (hit && same(hit.deps, deps)) return hit.fragment;
  const json = JSON.stringify(render());
  const fragment = { json, hash: hash53(json) };
  if (!views) cache.set(record, (views = new Map()));
  if (views.size >= MAX_VIEWS_PER_RECORD) views.clear();
  views.set(view, { deps, fragment });
  return fragment;
}

const UTF8 = new TextEncoder();
const BYTES = new WeakMap<Fragment, Uint8Array>();

/**
 * A fragment's JSON as UTF-8, encoded once and kept with it: an answer that is the fragment
 * whole goes out as these bytes, neither encoded nor copied again.
 */
export function fragmentBytes(fragment: Fragment): Uint8Array {
  let bytes = BYTES.get(fragment);
  if (bytes === undefined) BYTES.set(fragment, (bytes = UTF8.encode(fragment.json)));
  return bytes;
}

/** A JSON array of fragments, with an ETag derived from theirs. */
export function jsonArray(fragments: readonly Fragment[]): { json: string; etag: string } {
  return {
    json: `[${fragments.map((f) => f.json).join(',')}]`,
    etag: `W/"${hash53(fragments.map((f) => f.hash).join(''))}"`,
  };
}
