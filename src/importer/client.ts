// A small REST client for a live GitLab (doc/api/rest/_index.md): the token in PRIVATE-TOKEN,
// rate limits honoured (a 429 waits for Retry-After; RateLimit-Remaining 0 waits for
// RateLimit-Reset), and lists followed page by page through the Link header's rel="next"
// (keyset where GitLab offers it, offset otherwise), else X-Next-Page.

export type Progress = (line: string) => void;

/** A failed request: its status and GitLab's message, for a one-line error. */
export class GitlabRequestError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** The instance's URL, such as https://gitlab.com (a relative URL root is kept). */
  base: string;
  token: string;
  progress: Progress;
  /** How to wait (tests pass a faster one); milliseconds. */
  sleep?: (ms: number) => Promise<void>;
  /** Retries of one request after a 429 or a 5xx before giving up. */
  retries?: number;
  fetch?: typeof fetch;
}

const LONGEST_WAIT = 15 * 60_000;

export class GitlabClient {
  readonly api: string;
  readonly #token: string;
  readonly #progress: Progress;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #retries: number;
  readonly #fetch: typeof fetch;
  /** Requests made, for the summary. */
  requests = 0;

  constructor(o: ClientOptions) {
    this.api = `${o.base.replace(/\/+$/, '')}/api/v4`;
    this.#token = o.token;
    this.#progress = o.progress;
    this.#sleep = o.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#retries = o.retries ?? 5;
    this.#fetch = o.fetch ?? fetch;
  }

  /** One GET: the parsed body and the response, after waiting out rate limits. */
  async request(pathOrUrl: string): Promise<{ body: unknown; response: Response }> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${this.api}${pathOrUrl}`;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.#fetch(url, { headers: { 'PRIVATE-TOKEN': this.#token, Accept: 'application/json' } });
      } catch (e) {
        const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
        if (attempt < this.#retries && attempt < 2) {
          await this.#sleep(1000 * (attempt + 1));
          continue;
        }
        throw new GitlabRequestError(0, url, `cannot reach ${url}: ${cause}`);
      }
      this.requests++;
      if (response.status === 429 || (response.status >= 500 && response.status !== 501)) {
        await response.body?.cancel();
        if (attempt >= this.#retries) throw new GitlabRequestError(response.status, url, `GET ${url}: ${response.status} after ${attempt + 1} attempts`);
        const wait = response.status === 429 ? retryAfter(response.headers) ?? 60_000 : 1000 * 2 ** attempt;
        this.#progress(`${response.status === 429 ? 'rate limited' : `server error ${response.status}`}: waiting ${Math.ceil(wait / 1000)}s before retrying ${redact(url)}`);
        await this.#sleep(wait);
        continue;
      }
      const text = await response.text();
      let body: unknown = text;
      if (/json/.test(response.headers.get('content-type') ?? '') || /^\s*[[{]/.test(text)) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      if (!response.ok) throw new GitlabRequestError(response.status, url, `GET ${redact(url)}: ${response.status} ${messageOf(body)}`);
      await this.#throttle(response.headers);
      return { body, response };
    }
  }

  async get<T>(path: string): Promise<T> {
    return (await this.request(path)).body as T;
  }

  /** Every item of a list, following GitLab's next links; `what` names it in progress lines. */
  async all<T>(path: string, what?: string): Promise<T[]> {
    const out: T[] = [];
    let next: string | null = `${this.api}${path}${path.includes('?') ? '&' : '?'}per_page=100`;
    while (next) {
      const { body, response } = await this.request(next);
      if (!Array.isArray(body)) throw new GitlabRequestError(response.status, next, `GET ${redact(next)}: expected a list`);
      out.push(...(body as T[]));
      next = nextPage(next, response.headers);
      if (what && next) this.#progress(`${what}: ${out.length} so far`);
    }
    return out;
  }

  /** GitLab says how many requests are left in the window; at none, wait for its reset. */
  async #throttle(headers: Headers): Promise<void> {
    const remaining = headers.get('ratelimit-remaining');
    const reset = headers.get('ratelimit-reset');
    if (remaining === null || Number(remaining) > 0 || reset === null) return;
    const wait = Math.min(LONGEST_WAIT, Math.max(0, Number(reset) * 1000 - Date.now()) + 250);
    if (!Number.isFinite(wait) || wait <= 0) return;
    this.#progress(`rate limit reached: waiting ${Math.ceil(wait / 1000)}s for the window to reset`);
    await this.#sleep(wait);
  }
}

/** Retry-After: seconds, or an HTTP date (RFC 9110 10.2.3); milliseconds to wait. */
export function retryAfter(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) {
    const reset = headers.get('ratelimit-reset');
    return reset !== null && /^\d+$/.test(reset) ? Math.min(LONGEST_WAIT, Math.max(1000, Number(reset) * 1000 - Date.now())) : undefined;
  }
  if (/^\d+$/.test(value.trim())) return Math.min(LONGEST_WAIT, Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.min(LONGEST_WAIT, Math.max(0, at - Date.now())) : undefined;
}

/** The next page: Link rel="next" (keyset and offset), else X-Next-Page on the same URL. */
export function nextPage(current: string, headers: Headers): string | null {
  const link = headers.get('link');
  if (link) {
    for (const part of link.split(',')) {
      const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
      if (m) return m[1]!;
    }
  }
  const page = headers.get('x-next-page');
  if (page && /^\d+$/.test(page)) {
    const url = new URL(current);
    url.searchParams.set('page', page);
    return url.toString();
  }
  return null;
}

function messageOf(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown; error_description?: unknown };
    const m = b.message ?? b.error_description ?? b.error;
    if (m !== undefined) return typeof m === 'string' ? m : JSON.stringify(m);
  }
  return typeof body === 'string' ? body.slice(0, 200) : '';
}

/** A URL as progress shows it (tokens never travel in URLs here, but private_token could). */
function redact(url: string): string {
  return url.replace(/([?&](?:private_token|access_token)=)[^&]*/g, '$1[hidden]');
}
