// The request log: one line per request, for a person watching a console. Method, path, status,
// acting user and milliseconds, and what a person would want to know that the answer does not
// say (a path that is not emulated, a token that matches no user). Colours only when asked.
import type { RequestEvent } from './pipeline.js';

const ESC = '\u001b[';
const paint = (code: string, text: string, colour: boolean) => (colour ? `${ESC}${code}m${text}${ESC}0m` : text);

function statusColour(status: number): string {
  if (status >= 500 || status === 0) return '31'; // red
  if (status >= 400) return '33'; // yellow
  if (status >= 300) return '36'; // cyan
  return '32'; // green
}

/** One line for one request, e.g. `GET /api/v4/projects 200 alice 1.2 ms`. */
export function formatRequest(event: RequestEvent, options: { colour?: boolean } = {}): string {
  const colour = options.colour ?? false;
  const status = event.dropped ? 'dropped' : event.aborted ? '499 aborted' : String(event.status);
  const user = event.user === null ? 'anonymous' : event.sudoFrom ? `${event.user} (sudo by ${event.sudoFrom})` : event.user;
  if (!colour && !event.noRoute && !event.unknownToken && event.refused === undefined) {
    return `${event.method.padEnd(6)} ${event.path} ${status} ${user} ${event.durationMs.toFixed(1)} ms`; // the usual line, built at once
  }
  const notes: string[] = [];
  if (event.noRoute) notes.push('not emulated');
  if (event.unknownToken) notes.push('token matches no user');
  if (event.refused !== undefined) notes.push(`credentials refused: ${event.refused}`);
  const parts = [
    paint('1', event.method.padEnd(6), colour),
    event.path,
    paint(statusColour(event.status), status, colour),
    paint('2', user, colour),
    paint('2', `${event.durationMs.toFixed(1)} ms`, colour),
  ];
  if (notes.length) parts.push(paint('35', `(${notes.join('; ')})`, colour));
  return parts.join(' ');
}

/** Where a buffered log writes. */
export interface LogSink {
  write(chunk: string): void;
}

/**
 * A request log that keeps the console's write off the request's path: each request adds its
 * line, and the lines are written together, as one write, a little later (within `delayMs`, or
 * as soon as `maxLines` wait), and at once on `flush()` (the CLI calls it when it stops and on
 * the process's exit). A console under load gets one write per batch instead of one
 * synchronous write per request.
 */
export class RequestLogBuffer {
  #lines = '';
  #count = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #delayMs: number;
  readonly #maxLines: number;

  constructor(
    private readonly sink: LogSink,
    options: { delayMs?: number; maxLines?: number } = {},
  ) {
    this.#delayMs = options.delayMs ?? 20;
    this.#maxLines = options.maxLines ?? 1024;
  }

  /** Adds one line (without its newline); it is written with the next batch. */
  add(line: string): void {
    this.#lines += `${line}\n`;
    if (++this.#count >= this.#maxLines) this.flush();
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), this.#delayMs);
      (this.#timer as { unref?: () => void }).unref?.(); // a waiting line keeps no process alive: exit flushes it
    }
  }

  /** Writes every waiting line now. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#count === 0) return;
    const chunk = this.#lines;
    this.#lines = '';
    this.#count = 0;
    this.sink.write(chunk);
  }
}

let lastTime = NaN;
let lastIso = '';
/** The clock's time as the journal writes it; requests in one millisecond share the text. */
export function isoTime(now: number): string {
  if (now !== lastTime) {
    lastTime = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

/** Credentials GitLab filters out of its logs (config/application.rb filter_parameters). */
const SECRET_PARAMS = new Set(['private_token', 'job_token', 'access_token', 'token']);
const MAY_NAME_SECRET = /token|%/i;

/** The query string as the journal keeps it: a credential's value is `[FILTERED]`, as in GitLab's logs. */
export function filteredQuery(url: URL): string {
  const search = url.search;
  // No name can be a credential's without the letters (or a percent-encoding of them).
  if (!search || !MAY_NAME_SECRET.test(search)) return search;
  const parts = url.search.slice(1).split('&').map((part) => {
    const eq = part.indexOf('=');
    let name = eq < 0 ? part : part.slice(0, eq);
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      /* kept as sent */
    }
    return eq >= 0 && SECRET_PARAMS.has(name.toLowerCase()) ? `${part.slice(0, eq)}=[FILTERED]` : part;
  });
  return `?${parts.join('&')}`;
}
