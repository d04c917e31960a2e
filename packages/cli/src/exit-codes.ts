import {
  APIError,
  APIConnectionError,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '@browser-cloud/client';

/** The exit codes of `browser-cloud`, by error class (the README and `--help` list them). */
export const EXIT = {
  ok: 0,
  /**
   * Anything else: an answer the CLI cannot use (not an event stream; a body or an event without a
   * property the document requires, or with a known one of the wrong type), a bug.
   */
  failure: 1,
  /** Bad usage or bad input (the client's ValidationError): nothing was sent. */
  usage: 2,
  /** No API key or base URL in the environment, or a base URL the client refuses (not http(s), a query, a fragment, whitespace, credentials). */
  config: 3,
  /** 401 or 403. */
  auth: 4,
  /** 404, including `projects_disabled`. */
  notFound: 5,
  /** 409: a login flow already in progress, a profile name already taken. */
  conflict: 6,
  /** Any other answer of the API (400 from the server, 429, 5xx…). */
  api: 7,
  /** The service could not be reached, or did not answer in time. */
  connection: 8,
  /** Ended by Ctrl-C (SIGINT) or SIGTERM: 128 + the signal's number. */
  interrupted: 130,
  terminated: 143,
} as const;

/** The exit code for an error the client threw. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof ValidationError) return EXIT.usage;
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return EXIT.auth;
  if (error instanceof NotFoundError) return EXIT.notFound;
  if (error instanceof ConflictError) return EXIT.conflict;
  if (error instanceof APIError) return EXIT.api;
  if (error instanceof APIConnectionError) return EXIT.connection;
  return EXIT.failure;
}

/** For `--help`. */
export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    other failure (an answer the CLI cannot use)
  2    bad usage or bad input, found before any request
  3    configuration: BROWSER_CLOUD_API_KEY or BROWSER_CLOUD_BASE_URL missing or invalid
  4    401 or 403: the API key is invalid or lacks the permission
  5    404: not found (or projects disabled)
  6    409: a login flow already in progress, a profile name already taken
  7    any other API error (400 from the server, 429, 5xx)
  8    the service could not be reached or timed out
  130  interrupted (Ctrl-C); 143 on SIGTERM`;
