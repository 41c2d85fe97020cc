// Fault injection per route: added latency, a forced status, a dropped connection.
import type { ErrorBody } from './errors.js';

export interface FaultRule {
  /** Any method when absent. */
  method?: string;
  /** A path under /api/v4 (`/projects/1/releases`), a prefix ending in `*`, or a RegExp. */
  path: string | RegExp;
  latencyMs?: number;
  status?: number;
  /** JSON body of the forced status; GitLab-like `{ message }` when absent. */
  body?: ErrorBody;
  /** Answer with a network error (MSW, handle) or destroy the socket (server). */
  drop?: boolean;
  /** How many requests it applies to; forever when absent. */
  times?: number;
}

export interface Fault extends FaultRule {
  id: number;
}

export class Faults {
  #rules: Fault[] = [];
  #next = 1;

  add(rule: FaultRule): Fault {
    const fault = { ...rule, id: this.#next++ };
    this.#rules.push(fault);
    return fault;
  }

  list(): readonly Fault[] {
    return this.#rules;
  }

  remove(id: number): boolean {
    const n = this.#rules.length;
    this.#rules = this.#rules.filter((r) => r.id !== id);
    return this.#rules.length < n;
  }

  clear(): void {
    this.#rules = [];
  }

  /** The first rule matching, counted as used. `path` is relative to /api/v4. */
  take(method: string, path: string): Fault | undefined {
    if (this.#rules.length === 0) return undefined;
    const rule = this.#rules.find((r) => (!r.method || r.method.toUpperCase() === method) && matches(r.path, path));
    if (!rule) return undefined;
    if (rule.times !== undefined && --rule.times <= 0) this.remove(rule.id);
    return rule;
  }
}

function matches(pattern: string | RegExp, path: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(path);
  const p = pattern.replace(/^\/api\/v4/, '');
  return p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : path === p || path === `${p}/`;
}
