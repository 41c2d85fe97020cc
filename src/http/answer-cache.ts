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
  return credentialKey(`${request.method} ${url.href}\n${today(now)}`, request); // a route may answer HEAD unlike GET
}

function credentialKey(key: string, request: Incoming): string {
  for (const h of CREDENTIAL_HEADERS) key += `\n${request.headers.get(h) ?? ''}`;
  return key;
}

/**
 * The key of an answer by what it read of its request (see `Surface.credentialParams`): the
 * method, the origin its URLs start with and the path, the day, the credential headers, and the
 * query's values of `names` (the route's declared parameters and the surface's credential
 * parameters), in the query's order; the query's other parameters are not in it.
 */
export function declaredAnswerKey(request: Incoming, originPath: string, query: Record<string, unknown>, names: ReadonlySet<string>, now: number): string {
  let key = credentialKey(`${request.method} ${originPath}\n${today(now)}`, request);
  for (const name in query) if (names.has(name)) key += `\n${JSON.stringify(name)}=${JSON.stringify(query[name])}`;
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
  #declared = new Map<string, Answer>();
  #door = new Map<string, DoorEntry>();

  get(state: CoreState, key: string): Answer | undefined {
    return state === this.#state ? this.#map.get(key) : undefined;
  }

  set(state: CoreState, key: string, answer: Answer): void {
    this.#for(state);
    this.#map.set(key, answer);
  }

  /** An answer by its `declaredAnswerKey`, in this world. */
  declared(state: CoreState, key: string): Answer | undefined {
    return state === this.#state ? this.#declared.get(key) : undefined;
  }

  /** Keeps an answer (one `set` keeps too) by its `declaredAnswerKey`. */
  setDeclared(state: CoreState, key: string, answer: Answer): void {
    this.#for(state);
    if (this.#declared.size < LIMIT) this.#declared.set(key, answer);
  }

  /** Starts over for a new world, or when full. */
  #for(state: CoreState): void {
    if (state !== this.#state || this.#map.size >= LIMIT) {
      this.#state = state;
      this.#map = new Map();
      this.#declared = new Map();
      this.#door = new Map();
    }
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
