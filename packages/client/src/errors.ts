import type { ErrorBody, ErrorDetail, ValidationIssue } from '@browser-cloud/api-types';

/** One broken rule of the document's schemas, found before any request was sent. */
export type { ValidationIssue };

/** Base class of everything this package throws; none holds the bearer token. */
export class BrowserCloudError extends Error {
  /** Plain-object view for logs and `JSON.stringify`: name, message and own public fields. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const key of Object.keys(this)) {
      const value = (this as Record<string, unknown>)[key];
      // Headers serialise to `{}`; give them as a plain record instead.
      out[key] = value instanceof Headers ? Object.fromEntries(value) : value;
    }
    return out;
  }
}

/** What {@link ValidationError} and {@link InvalidResponseError} share: the issues, and `field` and `rule` of the first. */
export abstract class IssuesError extends BrowserCloudError {
  // Declared only: the constructor assigns them, in this order, so no field initializer is emitted.
  declare readonly field: string;
  declare readonly rule: string;
  declare readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], opening = '', options?: { cause?: unknown }) {
    super(opening + (issues.map((issue) => issue.message).join('; ') || 'invalid input'), options);
    this.field = issues[0]?.field ?? '';
    this.rule = issues[0]?.rule ?? 'unknown';
    this.issues = issues;
  }
}

/** Bad input, caught by the document's schemas before sending; `field` and `rule` are the first issue's. */
export class ValidationError extends IssuesError {
  constructor(issues: readonly ValidationIssue[]) {
    super(issues);
  }
}

/**
 * A 2xx answer (or a stream event) without a property the document requires, or with a known one
 * of the wrong type (unknown ones pass); `field` (`body.id`) and `rule` are the first issue's. Never retried.
 */
export class InvalidResponseError extends IssuesError {
  constructor(what: string, issues: readonly ValidationIssue[], options?: { cause?: unknown }) {
    super(issues, `${what}: `, options);
  }
}

/** Characters of an Error body's `code: message` that go into `err.message`; the rest is cut, with the length noted. */
export const MAX_MESSAGE_EXCERPT = 1000;

/** What the client knows about a non-2xx response when it builds an {@link APIError}. */
export interface APIErrorInit {
  readonly status: number;
  /** The Error body when the response had that shape, already redacted. */
  readonly body?: ErrorBody | undefined;
  /** What the message says of a body of another shape: `body, 5062 bytes: <html>…`; undefined for none. */
  readonly excerpt?: string | undefined;
  /** Response headers, already redacted. */
  readonly headers: Headers;
}

/**
 * A non-2xx answer of the service. The subclass follows the status (see {@link apiErrorFor});
 * `code`, `details` and `innerError` come from the Error body when there is one.
 */
export class APIError extends BrowserCloudError {
  declare readonly status: number;
  /** Machine-readable code of the Error body (`bad_request`, `projects_disabled`…); undefined when the body had another shape. */
  declare readonly code: string | undefined;
  declare readonly details: readonly ErrorDetail[];
  declare readonly innerError: ErrorDetail | undefined;
  /** Response headers. */
  declare readonly headers: Headers;
  /** The `x-request-id` response header, for support and log correlation. */
  declare readonly requestId: string | undefined;

  constructor(init: APIErrorInit) {
    const { status, body, excerpt, headers } = init;
    const said = body && `${body.code}: ${body.message}`;
    const clipped =
      said && said.length > MAX_MESSAGE_EXCERPT
        ? `${said.slice(0, MAX_MESSAGE_EXCERPT)}… (${said.length} characters)`
        : said;
    super(clipped ? `${status} ${clipped}` : `${status} status code (${excerpt ?? 'no body'})`);
    this.status = status;
    this.code = body?.code;
    this.details = body?.details ?? [];
    this.innerError = body?.inner_error;
    this.headers = headers;
    this.requestId = headers.get('x-request-id') ?? undefined;
  }

  /** True for the 404 that project operations answer when projects are disabled for the organization. */
  get isProjectsDisabled(): boolean {
    return this.code === 'projects_disabled';
  }

  /** True when `code` is the error's own code, a code in `details` or the code of `innerError`. */
  hasCode(code: string): boolean {
    return this.code === code || this.innerError?.code === code || this.details.some((d) => d.code === code);
  }
}

/** 400: bad request; `code` is `bad_request`, with `invalid_input` details (`err.hasCode('invalid_input')`). */
export class BadRequestError extends APIError {}
/** 401: missing or invalid token. */
export class AuthenticationError extends APIError {}
/** 403: insufficient permissions or plan. */
export class PermissionDeniedError extends APIError {}
/** 404: not found, or projects disabled (`err.isProjectsDisabled`). */
export class NotFoundError extends APIError {}
/** 409: conflict (a login flow already in progress, a duplicate profile name). Never retried. */
export class ConflictError extends APIError {}
/** 429: rate limited. */
export class RateLimitError extends APIError {}
/** Any 5xx. */
export class InternalServerError extends APIError {}

const BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

/** Builds the {@link APIError} subclass that matches the status; other statuses get a plain APIError. */
export function apiErrorFor(init: APIErrorInit): APIError {
  const Class = init.status >= 500 ? InternalServerError : (BY_STATUS[init.status] ?? APIError);
  return new Class(init);
}

/** The request could not be completed (`Connection error: ECONNREFUSED 127.0.0.1:37923`). */
export class APIConnectionError extends BrowserCloudError {
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The request did not complete within `timeoutMs`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms.`);
  }
}

/** The caller's `AbortSignal` aborted the request (or the wait before a retry). */
export class APIUserAbortError extends BrowserCloudError {
  constructor(message = 'Request was aborted.') {
    super(message);
  }
}

// `name` on the prototype, spelled out as minifiers rename classes: stack traces show the class,
// while `Object.keys(err)` stays limited to the documented fields.
for (const [name, cls] of Object.entries({
  BrowserCloudError,
  ValidationError,
  InvalidResponseError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
})) {
  Object.defineProperty(cls.prototype, 'name', { value: name, configurable: true, writable: true });
}
