// What the Sidekiq Metrics API reports, read from the world: the emulator runs GitLab's
// background work itself (the event stream's subscribers within each request, timed work on the
// clock), so its one "process" and its queues are that work. Timed work that is due but has not
// run yet is the `default` queue's backlog; every event the stream handed its subscribers counts
// as a processed job; nothing fails or dies, as a subscriber's failure fails its request.
import { tget, tvalues } from '../../store/table.js';
import { sequences } from '../../store/state.js';
import { iso } from '../../render/time.js';
import type { State } from '../world.js';

/** GitLab's default routing rules send every worker to `default`, and mail to `mailers`. */
export const QUEUES = ['default', 'mailers'] as const;
/** Sidekiq's concurrency in GitLab's default configuration. */
export const CONCURRENCY = 20;

const events = sequences(['event']);

function dueTasks(state: State, now: number): number[] {
  const due: number[] = [];
  for (const t of tvalues(state.tasks)) if (t.at <= now) due.push(t.at);
  return due;
}

export function queueMetrics(state: State, now: number) {
  const due = dueTasks(state, now);
  let oldest = now;
  for (const at of due) if (at < oldest) oldest = at;
  return {
    default: { backlog: due.length, latency: Math.floor((now - oldest) / 1000) },
    mailers: { backlog: 0, latency: 0 },
  };
}

/** The one process: on the emulator's host, up since the world's first record. */
export function processMetrics(state: State, host: string, now: number) {
  const startedAt = tget(state.users, 1)?.createdAt ?? now;
  return [
    {
      hostname: host,
      pid: 1,
      tag: 'gitlab',
      started_at: iso(startedAt),
      queues: [...QUEUES],
      labels: [],
      concurrency: CONCURRENCY,
      busy: 0,
    },
  ];
}

export function jobStats(state: State, now: number) {
  return {
    processed: events.peek(state, 'event') - 1,
    failed: 0,
    enqueued: dueTasks(state, now).length,
    dead: 0,
  };
}
