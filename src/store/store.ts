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

  constructor(initial: W) {
    this.#state = produce(initial, () => {});
  }

  get state(): W {
    return this.#state;
  }

  set state(next: W) {
    this.#state = next;
  }

  update(recipe: (draft: Draft<W>) => void): W {
    this.#state = produce(this.#state, recipe);
    return this.#state;
  }

  snapshot(): Snapshot {
    return Object.freeze({ state: this.#state });
  }

  /** Back to a snapshot this store took. */
  restore(snapshot: Snapshot): void {
    this.#state = snapshot.state as W;
  }
}
