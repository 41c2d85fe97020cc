// User search (User.search): a fuzzy match on name and username, an exact one on emails. The
// fuzzy part reads a trigram index built once per chunk of the users table and kept while the
// chunk is unchanged (chunks are immutable values), so a search costs a few lookups per chunk
// and a write re-indexes only the chunk it touched.
import type { User } from '../../store/state.js';
import { tchunks, tvalues, type Table } from '../../store/table.js';

type ChunkIndex = Map<string, User[]>;
const INDEXES = new WeakMap<ReadonlyMap<string, User>, ChunkIndex>();

function trigrams(text: string, into: Set<string>): void {
  for (let i = 0; i + 3 <= text.length; i++) into.add(text.slice(i, i + 3));
}

function indexOf(chunk: ReadonlyMap<string, User>): ChunkIndex {
  let index = INDEXES.get(chunk);
  if (index) return index;
  index = new Map();
  const grams = new Set<string>();
  for (const user of chunk.values()) {
    grams.clear();
    trigrams(user.name.toLowerCase(), grams);
    trigrams(user.username.toLowerCase(), grams);
    for (const g of grams) {
      const list = index.get(g);
      if (list) list.push(user);
      else index.set(g, [user]);
    }
  }
  INDEXES.set(chunk, index);
  return index;
}

const fuzzy = (user: User, q: string) => user.name.toLowerCase().includes(q) || user.username.toLowerCase().includes(q);

/** Users whose name or username contains `q` (lower-cased), in id order. */
export function fuzzyMatches(users: Table<User>, q: string): User[] {
  const out: User[] = [];
  if (q.length < 3) {
    for (const u of tvalues(users)) if (fuzzy(u, q)) out.push(u);
    return out;
  }
  const grams = new Set<string>();
  trigrams(q, grams);
  for (const chunk of tchunks(users)) {
    const index = indexOf(chunk);
    let smallest: User[] | undefined;
    for (const g of grams) {
      const list = index.get(g);
      if (!list) {
        smallest = undefined;
        break;
      }
      if (!smallest || list.length < smallest.length) smallest = list;
    }
    if (smallest) for (const u of smallest) if (fuzzy(u, q)) out.push(u);
  }
  return out;
}
