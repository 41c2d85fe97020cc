// The only place that knows GitLab's error envelopes (lib/api/helpers.rb, Grape, rack-oauth2).
// Handlers throw ApiError values built by these factories; anything else thrown is a 500.

export type ErrorBody = Record<string, unknown> | string | number | null;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
    /** Set when the body is sent as it is (a string), not as JSON. */
    readonly contentType?: string,
  ) {
    super(typeof body === 'object' && body !== null ? JSON.stringify(body) : String(body));
    this.name = 'ApiError';
  }
}

const message = (status: number, text: unknown, headers?: Record<string, string>) =>
  new ApiError(status, { message: text }, headers);

/** Grape's own errors (unknown route, parameter validation) use the `error` key. */
export const grapeError = (status: number, text: string) => new ApiError(status, { error: text });

export const routeNotFound = () => grapeError(404, '404 Not Found');

/**
 * Grape's InvalidMessageBody (a body that does not parse as its content type says), rendered
 * as Grape composes its long messages: "\nProblem:\n  ...\nResolution:\n  ...".
 */
export const invalidMessageBody = (format: string) =>
  grapeError(
    400,
    `\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying ${format} as content-type, you must pass valid ${format} in the request's 'body' `,
  );

/** Gitlab::Middleware::HandleMalformedStrings: parameters Rack or Rails cannot read, in plain text. */
export const malformedRequest = () => new ApiError(400, 'Bad Request', {}, 'text/plain');
export const apiV3Gone = () => grapeError(410, 'API V3 is no longer supported. Use API V4 instead.');

/** `not_found!(resource)`: `404 Project Not Found`; without a resource, `404 Not Found`. */
export const notFound = (resource?: string) =>
  message(404, resource ? `404 ${resource} Not Found` : '404 Not Found');
/** ActiveRecord::RecordNotFound, rescued globally: note the lower-case "found". */
export const recordNotFound = () => message(404, '404 Not found');

export const unauthorized = (reason?: string) =>
  message(401, reason ? `401 Unauthorized - ${reason}` : '401 Unauthorized');
export const forbidden = (reason?: string) => message(403, reason ? `403 Forbidden - ${reason}` : '403 Forbidden');
export const badRequest = (reason?: string) =>
  message(400, reason ? `400 Bad request - ${reason}` : '400 Bad request');
export const missingAttribute = (name: string) => badRequest(`"${name}" not given`);
/** `render_validation_error!`: each attribute to its list of messages. */
export const validationFailed = (errors: Record<string, string[]>) => message(400, errors);
export const conflict = (text = '409 Conflict') => message(409, text);
export const notAllowed = (text = '405 Method Not Allowed') => message(405, text);
export const unprocessable = (text = '422 Unprocessable Entity') => message(422, text);
export const preconditionFailed = () => message(412, '412 Precondition Failed');
export const uriTooLong = () => message(414, '414 Request-URI Too Large');
/** The front proxy's refusal of a body over `client_max_body_size` (nginx's page, as GitLab's Omnibus answers). */
export const payloadTooLarge = () =>
  new ApiError(
    413,
    '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    {},
    'text/html',
  );
export const unsupportedMediaType = (type: string) =>
  grapeError(415, `The provided content-type '${type}' is not supported.`);
/**
 * GitLab's `{"message": ...}` envelope with a service's own text (`render_api_error!`). Families
 * name each of their messages with it in their own errors.ts.
 */
export const messageError = (status: number, text: unknown) => message(status, text);

/** ApplicationRateLimiter (`check_rate_limit!`). */
export const rateLimited = (retryAfterSeconds: number) =>
  message(429, { error: 'This endpoint has been requested too many times. Try again later.' }, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

export const serverError = () => message(500, '500 Internal Server Error');

const OAUTH_REALM = 'Protected by OAuth 2.0';

/** rack-oauth2's 401 for an expired, revoked or disabled token. */
export function invalidToken(description: string): ApiError {
  return new ApiError(401, { error: 'invalid_token', error_description: description }, {
    'WWW-Authenticate': `Bearer realm="${OAUTH_REALM}", error="invalid_token", error_description="${description}"`,
  });
}

/** rack-oauth2's 403 when the token lacks every scope the endpoint accepts. */
export function insufficientScope(scopes: string[]): ApiError {
  const description = 'The request requires higher privileges than provided by the access token.';
  return new ApiError(403, { error: 'insufficient_scope', error_description: description, scope: scopes.join(' ') }, {
    'WWW-Authenticate': `Bearer realm="${OAUTH_REALM}", error="insufficient_scope", error_description="${description}", scope="${scopes.join(' ')}"`,
  });
}

/** Misuse of the emulator itself (a fixture naming an unknown user, say): never an HTTP answer. */
export class EmulatorError extends Error {
  constructor(text: string) {
    super(`[gitlab-emulator] ${text}`);
    this.name = 'EmulatorError';
  }
}

/**
 * A fixture not of the fixture format: `text` names each mistake with its path (one a line when
 * there are several), `mistakes` lists them.
 */
export class FixtureError extends EmulatorError {
  readonly text: string;
  readonly mistakes: readonly string[];
  /** One mistake, or several; a hint on what the whole seems to be goes first. */
  constructor(mistakes: string | readonly string[], hint?: string) {
    const list = typeof mistakes === 'string' ? [mistakes] : mistakes;
    const head = hint ? `${hint}. ` : '';
    const text = list.length === 1 && !hint ? list[0]! : `${head}${list.length} mistake${list.length === 1 ? '' : 's'}:\n${list.map((l) => `  - ${l}`).join('\n')}`;
    super(text);
    this.text = text;
    this.mistakes = list;
    this.name = 'FixtureError';
  }
}

/** A fixture record that GitLab's validations would refuse. */
export function invalidFixture(where: string, errors: Record<string, string[]>): EmulatorError {
  const text = Object.entries(errors).map(([k, v]) => `${k} ${v.join(', ')}`).join('; ');
  return new EmulatorError(`${where} is invalid: ${text}`);
}
