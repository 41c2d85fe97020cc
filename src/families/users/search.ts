// User search (User.search): a fuzzy match on name and username, an exact one on emails. The
// fuzzy part reads a trigram index built once per chunk of the users table and kept while the
// chunk is unchanged (chunks are immutable values), so a write re-indexes only the chunk it
// touched. Chunks come in groups (the table's top-level records, up to 64 chunks each, also
// immutable): a group searched again unchanged keeps the set of every trigram in it, so a search
// skips a whole group that cannot match with a few lookups, and its cost follows the groups that
// can match rather than the number of users.
import type { User } from '../../store/state.js';
import { tchunkGroups, type Table } from '../../store/table.js';

interface ChunkIndex {
  users: User[];
  /** Lower-cased name and username of `users[i]`, made once per chunk rather than per search. */
  names: string[];
  usernames: string[];
  /** Trigram -> positions in `users`. */
  grams: Map<string, number[]>;
}
type Chunk = ReadonlyMap<string, User>;
type Group = Readonly<Record<string, Chunk>>;

const INDEXES = new WeakMap<Chunk, ChunkIndex>();
/** A group's trigrams, kept once the same group has been searched twice (a write then one search costs no more than before). */
const GROUP_GRAMS = new WeakMap<Group, Set<string>>();
const GROUPS_SEEN = new WeakSet<Group>();

function trigrams(text: string, into: Set<string>): void {
  for (let i = 0; i + 3 <= text.length; i++) into.add(text.slice(i, i + 3));
}

function indexOf(chunk: Chunk): ChunkIndex {
  let index = INDEXES.get(chunk);
  if (index) return index;
  index = { users: [], names: [], usernames: [], grams: new Map() };
  const grams = new Set<string>();
  for (const user of chunk.values()) {
    const at = index.users.length;
    const name = user.name.toLowerCase();
    const username = user.username.toLowerCase();
    index.users.push(user);
    index.names.push(name);
    index.usernames.push(username);
    grams.clear();
    trigrams(name, grams);
    trigrams(username, grams);
    for (const g of grams) {
      const list = index.grams.get(g);
      if (list) list.push(at);
      else index.grams.set(g, [at]);
    }
  }
  // Only a frozen chunk is a fixed value; a draft's may still change.
  if (Object.isFrozen(chunk)) INDEXES.set(chunk, index);
  return index;
}

function groupGrams(group: Group): Set<string> | undefined {
  const known = GROUP_GRAMS.get(group);
  if (known) return known;
  if (!Object.isFrozen(group)) return undefined;
  if (!GROUPS_SEEN.has(group)) {
    GROUPS_SEEN.add(group);
    return undefined;
  }
  const all = new Set<string>();
  for (const key in group) for (const g of indexOf(group[key]!).grams.keys()) all.add(g);
  GROUP_GRAMS.set(group, all);
  return all;
}

const fuzzy = (index: ChunkIndex, i: number, q: string) => index.names[i]!.includes(q) || index.usernames[i]!.includes(q);

/** Users whose name or username contains `q` (lower-cased), in id order. */
export function fuzzyMatches(users: Table<User>, q: string): User[] {
  const out: User[] = [];
  const grams = new Set<string>();
  trigrams(q, grams);
  for (const group of tchunkGroups(users)) {
    if (grams.size > 0) {
      const all = groupGrams(group);
      if (all) {
        let possible = true;
        for (const g of grams) if (!all.has(g)) possible = false;
        if (!possible) continue;
      }
    }
    for (const key in group) {
      const index = indexOf(group[key]!);
      if (grams.size === 0) {
        for (let i = 0; i < index.users.length; i++) if (fuzzy(index, i, q)) out.push(index.users[i]!);
        continue;
      }
      let smallest: number[] | undefined;
      for (const g of grams) {
        const list = index.grams.get(g);
        if (!list) {
          smallest = undefined;
          break;
        }
        if (!smallest || list.length < smallest.length) smallest = list;
      }
      if (smallest) for (const i of smallest) if (fuzzy(index, i, q)) out.push(index.users[i]!);
    }
  }
  return out;
}
