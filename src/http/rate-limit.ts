// Fixed-window counters on the emulator's clock, as GitLab's ApplicationRateLimiter counts:
// one window per (limit, caller) that starts at the first request and lasts `period_seconds`.
import type { RateLimit } from '../store/state.js';

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  #windows = new Map<string, Window>();

  /** Counts one use; returns the seconds until the window ends when the limit is reached. */
  take(id: string, limit: RateLimit, now: number): { ok: true } | { ok: false; retryAfter: number } {
    const period = limit.period_seconds * 1000;
    let w = this.#windows.get(id);
    if (!w || now >= w.start + period || now < w.start) {
      w = { start: now, count: 0 };
      this.#windows.set(id, w);
    }
    if (w.count >= limit.limit) return { ok: false, retryAfter: (w.start + period - now) / 1000 };
    w.count++;
    return { ok: true };
  }

  clear(): void {
    this.#windows.clear();
  }
}
