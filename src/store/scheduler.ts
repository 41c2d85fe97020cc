// Timed work on the clock: tasks are data in the world; when the clock passes a task's time the
// scheduler runs it (through the given runner) as one change of the world.
import type { Draft } from 'immer';
import type { CoreState, Task } from './state.js';
import type { Clock } from '../core/clock.js';

export interface WorldStore<W extends CoreState> {
  readonly state: W;
  update(recipe: (draft: Draft<W>) => void): W;
}

/** Tasks due at `now`, earliest first. */
function dueTasks(state: CoreState, now: number): Task[] {
  return state.tasks.filter((t) => t.at <= now).sort((a, b) => a.at - b.at || a.id - b.id);
}

export class Scheduler<W extends CoreState> {
  #running = false;
  #ran = 0;

  constructor(
    private readonly store: WorldStore<W>,
    private readonly clock: Clock,
    private readonly run: (draft: Draft<W>, task: Task, now: number) => void,
  ) {
    clock.onChange(() => this.runDue());
  }

  /** Runs what is due now; each batch of due tasks is one change of the world. */
  runDue(): void {
    if (this.#running || this.store.state.tasks.length === 0) return;
    this.#running = true;
    try {
      for (let due = dueTasks(this.store.state, this.clock.now()); due.length > 0; due = dueTasks(this.store.state, this.clock.now())) {
        const now = this.clock.now();
        const ids = new Set(due.map((t) => t.id));
        this.store.update((draft) => {
          draft.tasks = draft.tasks.filter((t) => !ids.has(t.id));
          for (const task of due) this.run(draft, task, now);
        });
        this.#ran += due.length;
      }
    } finally {
      this.#running = false;
    }
  }

  /** Runs every scheduled task, moving the clock forward to each one's time. Returns how many ran. */
  runUntilIdle(): number {
    const before = this.#ran;
    for (let guard = 0; guard < 100_000 && this.store.state.tasks.length > 0; guard++) {
      const at = Math.min(...this.store.state.tasks.map((t) => t.at));
      if (at > this.clock.now()) this.clock.set(at); // the clock's listener runs what is due
      else this.runDue();
    }
    return this.#ran - before;
  }
}
