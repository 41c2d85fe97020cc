// Timed work on the clock: tasks are data in the world; when the clock passes a task's time the
// scheduler runs it (through the given runner) as one change of the world.
import type { Draft } from 'immer';
import type { CoreState, Task } from './state.js';
import type { Clock } from '../core/clock.js';
import { tdel, tlist, tset, tvalues } from './table.js';

export interface WorldStore<W extends CoreState> {
  readonly state: W;
  update(recipe: (draft: Draft<W>) => void): W;
}

/** Adds timed work to the world (inside a change of it). */
export function addTask(draft: CoreState, task: Task): void {
  tset(draft.tasks, task.id, task);
  if (draft.nextTaskAt === null || task.at < draft.nextTaskAt) draft.nextTaskAt = task.at;
}

/** Every pending task, earliest first. */
export function pendingTasks(state: CoreState): Task[] {
  return tlist(state.tasks).sort(byTime);
}

const byTime = (a: Task, b: Task) => a.at - b.at || a.id - b.id;

/** Tasks due at `now`, earliest first. */
function dueTasks(state: CoreState, now: number): Task[] {
  if (state.nextTaskAt === null || state.nextTaskAt > now) return [];
  const due: Task[] = [];
  for (const t of tvalues(state.tasks)) if (t.at <= now) due.push(t);
  return due.sort(byTime);
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
    const next = this.store.state.nextTaskAt;
    if (this.#running || next === null || next > this.clock.now()) return;
    this.#running = true;
    try {
      for (let due = dueTasks(this.store.state, this.clock.now()); due.length > 0; due = dueTasks(this.store.state, this.clock.now())) {
        const now = this.clock.now();
        this.store.update((draft) => {
          for (const task of due) tdel(draft.tasks, task.id);
          for (const task of due) this.run(draft, task, now);
          // Only when work ran: the earliest of what is left (tasks it scheduled included).
          let earliest: number | null = null;
          for (const t of tvalues(draft.tasks)) if (earliest === null || t.at < earliest) earliest = t.at;
          draft.nextTaskAt = earliest;
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
    for (let guard = 0; guard < 100_000 && this.store.state.nextTaskAt !== null; guard++) {
      const at = this.store.state.nextTaskAt;
      if (at > this.clock.now()) this.clock.set(at); // the clock's listener runs what is due
      else this.runDue();
    }
    return this.#ran - before;
  }
}
