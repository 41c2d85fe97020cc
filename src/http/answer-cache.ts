// Answers of cacheable GET routes for the current world. The world is immutable, so an answer
// is a function of (world, URL, credentials, day) for routes whose output does not read the
// time of day; a new world starts an empty cache. Bounded, and only the current world is kept.
import { today } from '../policy/access.js';
import type { CoreState } from '../store/state.js';
import type { Caller } from './auth.js';
import type { Incoming, Rendered } from './incoming.js';
import type { Reply, RouteDef } from './route.js';
import type { Surface } from './surface.js';

export interface Answer {
  caller: Caller;
  reply: Reply;
  headers: Record<string, string>;
  /** The answer as rendered for a request that is not conditional, once it was. */
  rendered?: Rendered;
}

const CREDENTIAL_HEADERS = ['authorization', 'private-token', 'job-token', 'cookie', 'sudo'];
const LIMIT = 256;

export function answerKey(request: Incoming, url: URL, now: number): string {
  let key = `${request.method} ${url.href}\n${today(now)}`; // a route may answer HEAD unlike GET
  for (const h of CREDENTIAL_HEADERS) key += `\n${request.headers.get(h) ?? ''}`;
  return key;
}

/**
 * A cached answer as a door found it by the request as sent (its method, Host, target and
 * credentials, not parsed), with what the pipeline worked out of its URL on the way: enough to
 * answer, journal and log it again without parsing or routing.
 */
export interface DoorEntry {
  answer: Answer;
  surface: Surface;
  route: RouteDef;
  routeName: string;
  pathname: string;
  search: string;
  /** The query string as the journal keeps it. */
  query: string;
  /** The day the answer is for (the answer cache's key has it). */
  day: string;
}

export class AnswerCache {
  #state: CoreState | undefined;
  #map = new Map<string, Answer>();
  #door = new Map<string, DoorEntry>();

  get(state: CoreState, key: string): Answer | undefined {
    return state === this.#state ? this.#map.get(key) : undefined;
  }

  set(state: CoreState, key: string, answer: Answer): void {
    if (state !== this.#state || this.#map.size >= LIMIT) {
      this.#state = state;
      this.#map = new Map();
      this.#door = new Map();
    }
    this.#map.set(key, answer);
  }

  /** The entry a door's key reached in this world, if any. */
  door(state: CoreState, doorKey: string): DoorEntry | undefined {
    return state === this.#state ? this.#door.get(doorKey) : undefined;
  }

  /** Remembers what a door's key reached: only for an answer the cache holds in this world. */
  remember(state: CoreState, doorKey: string, entry: DoorEntry): void {
    if (state !== this.#state || this.#door.size >= LIMIT) return;
    this.#door.set(doorKey, entry);
  }
}
