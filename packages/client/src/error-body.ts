import type { ErrorBody, ErrorDetail } from '@browser-cloud/api-types';
import { validateReceivedError } from '@browser-cloud/api-types/validators';
import { type BoundedBody, readBoundedBody } from '@browser-cloud/sse';
import { type APIError, apiErrorFor } from './errors.js';
import { redact, redactHeaders } from './redact.js';

/** Bytes read from the body of a non-2xx response; the rest is cancelled unread. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Characters of a body that is not the Error shape that go into the error's message. */
export const MAX_BODY_EXCERPT = 200;
/** How long the body of a non-2xx response is read, from its headers on: the status is known already. */
export const ERROR_BODY_TIMEOUT_MS = 2_000;

/**
 * The {@link APIError} for a non-2xx `response`, from a bounded read of its body: one of the
 * document's Error shape gives `code`, `details` and `innerError`, another an excerpt in the
 * message. The secret is replaced in the body's strings and the headers.
 */
export async function errorFromResponse(response: Response, secret: string): Promise<APIError> {
  const { status } = response;
  const headers = redactHeaders(response.headers, secret);
  // A redirect, which the client does not follow (see `transport`): a 3xx, or in a browser the
  // opaque redirect (status 0) of `redirect: 'manual'`. Its body says nothing more.
  if ((status >= 300 && status < 400) || response.type === 'opaqueredirect') {
    response.body?.cancel().catch(() => {});
    return redirectError(status, headers);
  }
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), ERROR_BODY_TIMEOUT_MS);
  let read: BoundedBody;
  try {
    // Piped, so that the deadline ends a read that waits: it errors the reader's side and
    // cancels the body, for the global fetch and an injected one alike.
    const body = response.body?.pipeThrough(new TransformStream<Uint8Array, Uint8Array>(), { signal: deadline.signal });
    read = await readBoundedBody(body ?? null, MAX_ERROR_BODY_BYTES);
  } finally {
    clearTimeout(timer);
  }
  const body = read.truncated || read.failed ? undefined : errorShape(read.text, secret);
  if (body) return apiErrorFor({ status, headers, body });
  const stalled = read.failed && deadline.signal.aborted;
  return apiErrorFor({ status, headers, excerpt: describeBody(read, response.headers, secret, stalled) });
}

/**
 * The APIError of a redirect, which the client does not follow (see `transport`), naming where it
 * leads when the response says: status 0 without headers where fetch only says that one came.
 */
export function redirectError(status: number, headers: Headers): APIError {
  const to = headers.get('location');
  const excerpt = `redirect${to ? ` to ${to}` : ''}, not followed: point the base URL at the address that answers`;
  return apiErrorFor({ status, headers, excerpt });
}

/** The property names of an Error body and of its details; the compiler refuses a list that misses one. */
const ERROR_FIELDS = Object.keys({ code: 0, message: 0, details: 0, inner_error: 0 } satisfies Record<
  keyof ErrorBody | keyof ErrorDetail,
  0
>);

/** The parsed body when it is the Error shape: its documented fields only, every string without the secret. */
function errorShape(text: string, secret: string): ErrorBody | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!validateReceivedError(value)) return undefined;
    const known = JSON.stringify(value, ERROR_FIELDS);
    return JSON.parse(known, (_, field: unknown) => (typeof field === 'string' ? redact(field, secret) : field));
  } catch {
    return undefined;
  }
}

/**
 * `body: …`, `body, N bytes: …`, `body unreadable after N bytes: …` or `body not complete within
 * T ms, after N bytes: …`; undefined for an empty body.
 */
function describeBody(read: BoundedBody, headers: Headers, secret: string, stalled: boolean): string | undefined {
  const flat = redact(read.text.replace(/\s+/g, ' ').trim(), secret);
  if (!flat && !read.failed && !read.truncated) return undefined;
  const shown = flat.length > MAX_BODY_EXCERPT ? `${flat.slice(0, MAX_BODY_EXCERPT)}…` : flat;
  const declared = headers.get('content-length');
  const size = stalled
    ? ` not complete within ${ERROR_BODY_TIMEOUT_MS} ms, after ${read.bytes} bytes`
    : read.failed
      ? ` unreadable after ${read.bytes} bytes`
      : read.truncated
        ? `, ${declared && /^\d+$/.test(declared) ? declared : `over ${read.bytes}`} bytes`
        : flat === shown
          ? ''
          : `, ${read.bytes} bytes`;
  return `body${size}${shown ? `: ${shown}` : ''}`;
}
