// What the pipeline reads of a request and what it answers, as plain values, so that each door
// gives what it has: a fetch `Request` as it is (the MSW door, `handle`), or node's request
// without building a fetch object for it (the server). Its answer becomes a `Response` only
// for the doors that need one.

/** The headers of a request, by case-insensitive name. */
export interface HeaderReader {
  get(name: string): string | null;
  has(name: string): boolean;
}

/** A request's body as it streams in. */
export interface BodySource {
  /** The chunks as they arrive; throws when the client goes away. */
  chunks(): AsyncIterable<Uint8Array>;
  /** The rest is not wanted (it is too large): stop reading it. */
  discard(): void;
}

export interface Incoming {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  /** The same URL parsed, when the door has parsed it already (the pipeline then does not again). */
  readonly parsedUrl?: URL;
  readonly headers: HeaderReader;
  /** Null when the request carries no body. */
  readonly body: BodySource | null;
  /**
   * The door's own key for the request as sent (method, Host, target, credentials), when it can
   * answer a cached one at once by it (`Pipeline.answerAtOnce`): a hit is remembered under it.
   */
  readonly doorKey?: string;
}

/** An answer as it goes on the wire: header values already wire-safe. */
export interface Rendered {
  /**
   * Set on an answer the answer cache keeps and shares (no one may change it): its headers with
   * `Content-Length` added, for a door that writes the wire itself.
   */
  wireHeaders?: Readonly<Record<string, string>>;
  /** 0: drop the connection without an answer (an injected fault). */
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

/** A fetch `Request` as the pipeline reads it. */
export function fromRequest(request: Request): Incoming {
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    get body(): BodySource | null {
      const stream = request.body;
      return stream === null ? null : streamSource(stream);
    },
  };
}

function streamSource(stream: ReadableStream<Uint8Array>): BodySource {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    async *chunks() {
      reader = stream.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
    },
    discard() {
      void (reader ?? stream).cancel().catch(() => {});
    },
  };
}

export function toResponse(answer: Rendered): Response {
  if (answer.status === 0) return Response.error();
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
}
