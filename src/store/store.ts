// The immutable store. `update` applies an immer recipe; a snapshot is the state value
// itself, so snapshot() and restore() are O(1) whatever the world's size.
import { produce, type Draft } from 'immer';
import type { State } from './state.js';

export type Recipe = (draft: Draft<State>) => void;

/** An opaque handle on one version of the world. */
export interface Snapshot {
  readonly state: State;
}

export class Store {
  #state: State;

  constructor(initial: State) {
    this.#state = produce(initial, () => {});
  }

  get state(): State {
    return this.#state;
  }

  set state(next: State) {
    this.#state = next;
  }

  update(recipe: Recipe): State {
    this.#state = produce(this.#state, recipe);
    return this.#state;
  }

  snapshot(): Snapshot {
    return Object.freeze({ state: this.#state });
  }

  restore(snapshot: Snapshot): void {
    this.#state = snapshot.state;
  }
}
