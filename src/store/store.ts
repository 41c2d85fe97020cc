// The immutable store. `update` applies an immer recipe; a snapshot is the state value
// itself, so snapshot() and restore() are O(1) whatever the world's size.
import { produce, type Draft } from 'immer';
import type { CoreState } from './state.js';

/** An opaque handle on one version of the world. */
export interface Snapshot {
  readonly state: CoreState;
}

export class Store<W extends CoreState = CoreState> {
  #state: W;
  /** Told after each world that becomes current (a data directory logs what changed). */
  #watcher: ((state: W) => void) | undefined;

  constructor(initial: W) {
    this.#state = produce(initial, () => {});
  }

  get state(): W {
    return this.#state;
  }

  set state(next: W) {
    this.#state = next;
    this.#watcher?.(next);
  }

  update(recipe: (draft: Draft<W>) => void): W {
    this.#state = produce(this.#state, recipe);
    this.#watcher?.(this.#state);
    return this.#state;
  }

  /** One watcher, told of every world committed from now on (none: `undefined`). */
  watch(watcher: ((state: W) => void) | undefined): void {
    this.#watcher = watcher;
  }

  snapshot(): Snapshot {
    return Object.freeze({ state: this.#state });
  }

  /** Back to a snapshot this store took. */
  restore(snapshot: Snapshot): void {
    this.#state = snapshot.state as W;
    this.#watcher?.(this.#state);
  }
}
