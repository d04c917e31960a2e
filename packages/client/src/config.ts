import type { ClientOptions } from './connection.js';
import { BrowserCloudError, ValidationError } from './errors.js';

/** Environment variable read for the token when `token` is not given. */
export const TOKEN_ENV = 'BROWSER_CLOUD_API_KEY';
/** Environment variable read for the base URL when `baseUrl` is not given. */
export const BASE_URL_ENV = 'BROWSER_CLOUD_BASE_URL';

/**
 * What a program that reads the token from its environment says when the service refuses it
 * (401, `AuthenticationError`): the variable to check, and `where` it is set. The CLI and the MCP
 * server say it in these words.
 */
export function refusedTokenHint(where = 'the environment'): string {
  return `The API key was refused: check ${TOKEN_ENV} in ${where}.`;
}

/** 60 s per attempt, up to the response headers and the JSON body. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Two retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 2;
/** The backoff of requests and log-stream reconnects: 0.5 s doubling, at most 8 s, plus up to 25 % jitter. */
export const BACKOFF = { base: 500, maxDelay: 8_000, jitter: 0.25 } as const;

/** Reads an environment variable where there is a `process` (Node, Bun, Deno's compat); browsers have none. */
function env(name: string): string | undefined {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env?.[name] || undefined;
}

/**
 * The options as the client uses them, from the environment where not given, checked. The
 * document's only server default is the local mock, so a base URL must be given.
 */
export function resolveOptions(options: ClientOptions) {
  const token = normaliseToken(options.token || env(TOKEN_ENV));
  if (!token) throw new BrowserCloudError(`Missing API token: pass \`token\` or set ${TOKEN_ENV}.`);
  const baseUrl = options.baseUrl || env(BASE_URL_ENV);
  if (!baseUrl) throw new BrowserCloudError(`Missing base URL: pass \`baseUrl\` or set ${BASE_URL_ENV}.`);
  checkBaseUrl(baseUrl);
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    token,
    timeoutMs: nonNegative('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxRetries: nonNegative('maxRetries', options.maxRetries, DEFAULT_MAX_RETRIES, true),
  };
}

/** Refuses (`field` `baseUrl`) a base URL that is not an origin with a path prefix, to which paths are appended as they are. */
function checkBaseUrl(given: string): void {
  const refuse = (rule: string, what: string) =>
    new ValidationError([{ field: 'baseUrl', rule, message: `baseUrl: ${what} (\`baseUrl\` or ${BASE_URL_ENV})` }]);
  if (/[\s\p{Cc}]/u.test(given)) throw refuse('whitespace', 'must not hold whitespace or control characters');
  const url = URL.canParse(given) ? new URL(given) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    // Not echoed when it may hold a password (`user:pw@…` without a scheme).
    throw refuse(
      'httpUrl',
      `must be an absolute http(s) URL${given.includes('@') ? '' : `, got ${JSON.stringify(given)}`}`,
    );
  }
  if (url.username || url.password) throw refuse('credentials', 'must not hold credentials (user:password@)');
  // Whichever comes first: a `#` after a `?` is in the query, a `?` after a `#` in the fragment.
  const part = /[?#]/.exec(given)?.[0] === '?' ? 'query' : /#/.test(given) ? 'fragment' : undefined;
  if (part) throw refuse(part, `must not hold a ${part}`);
}

/**
 * The token as it is sent and scrubbed: without the whitespace Fetch's "normalize" trims. A character
 * no header can carry is refused here rather than by fetch, in an error that may quote the header.
 */
function normaliseToken(given: string | undefined): string | undefined {
  const token = given?.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (token && !/^[\x20-\x7e\t]+$/.test(token)) {
    throw new BrowserCloudError('The API token holds a character that cannot be sent in an HTTP header.');
  }
  return token || undefined;
}

/** Checks a numeric option: a finite number ≥ 0 (an integer for retry counts). */
function nonNegative(name: string, value: number | undefined, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new BrowserCloudError(`${name} must be a non-negative ${integer ? 'integer' : 'number'}, got ${value}.`);
  }
  return value;
}
