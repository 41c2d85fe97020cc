// Answers of cacheable GET routes for the current world. The world is immutable, so an answer
// is a function of (world, URL, credentials, day) for routes whose output does not read the
// time of day; a new world starts an empty cache. Bounded, and only the current world is kept.
import { today } from '../policy/access.js';
import type { CoreState } from '../store/state.js';
import type { Caller } from './auth.js';
import type { Incoming, Rendered } from './incoming.js';
import type { Reply } from './route.js';

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

export class AnswerCache {
  #state: CoreState | undefined;
  #map = new Map<string, Answer>();

  get(state: CoreState, key: string): Answer | undefined {
    return state === this.#state ? this.#map.get(key) : undefined;
  }

  set(state: CoreState, key: string, answer: Answer): void {
    if (state !== this.#state || this.#map.size >= LIMIT) {
      this.#state = state;
      this.#map = new Map();
    }
    this.#map.set(key, answer);
  }
}
