import { parseRetryAfter } from './retry-after.js';

/** What to do with a response, per the status policy of {@link connectEventStream}. */
export type ResponseVerdict =
  | { readonly kind: 'open' }
  | { readonly kind: 'end' }
  | { readonly kind: 'retry'; readonly retryAfter: number | undefined }
  | { readonly kind: 'fail'; readonly type: 'bad-status' | 'bad-content-type' };

/**
 * - 200 with a `text/event-stream` media type opens the stream;
 * - 204 ends it for good (the spec's way for a server to say "stop reconnecting");
 * - 408, 429 and 5xx are transient: retry, honouring `Retry-After`;
 * - anything else, or a 200 of another media type, fails for good.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#server-sent-events-intro
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#the-eventsource-interface
 */
export function classifyResponse(status: number, headers: Pick<Headers, 'get'>, now?: number): ResponseVerdict {
  if (status === 200) {
    return isEventStreamType(headers.get('content-type'))
      ? { kind: 'open' }
      : { kind: 'fail', type: 'bad-content-type' };
  }
  if (status === 204) return { kind: 'end' };
  if (status === 408 || status === 429 || (status >= 500 && status <= 599)) {
    return { kind: 'retry', retryAfter: parseRetryAfter(headers.get('retry-after'), now) };
  }
  return { kind: 'fail', type: 'bad-status' };
}

/** Media type `text/event-stream`, compared case-insensitively, parameters ignored. */
export function isEventStreamType(contentType: string | null): boolean {
  return contentType !== null && contentType.split(';')[0]!.trim().toLowerCase() === 'text/event-stream';
}
