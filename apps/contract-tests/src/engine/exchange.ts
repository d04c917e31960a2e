// Sends a case and reads the answer, bounded: a body over the limit, a stream that never ends and
// a server that never answers each end the read instead of hanging the run.
import { readBoundedBody } from '@browser-cloud/sse';
import { Broken } from './judge.js';
import { pathOf, type RequestCase } from './request-case.js';

export interface Answer {
  status: number;
  headers: Headers;
  contentType: string;
  /** The body as text: whole, or what arrived of a stream within the limits. */
  text: string;
  /** Parsed JSON when the content type says JSON and the text parses. */
  json?: unknown;
  /** True when the body was cut at `maxBytes` (a stream is expected to be). */
  truncated: boolean;
}

export type ExchangeTarget = { baseUrl: string; token: string; fetch?: typeof fetch | undefined };

export interface ExchangeLimits {
  /** No answer headers within this long is a failure. Default 10 s. */
  answerMs?: number;
  /** Most bytes read of any body. Default 1 MiB. */
  maxBytes?: number;
  /** How long an event stream is read (a followed stream never ends by itself). Default 500 ms. */
  streamMs?: number;
  /** Stops reading an event stream before `streamMs` once this holds for the text that arrived. */
  streamUntil?: ((text: string) => boolean) | undefined;
}

/**
 * At most `maxBytes` of the body, until it ends, `ms` pass or `until` holds; the rest is cancelled.
 * Ending closes the read rather than erroring it, so that what already arrived is still read.
 */
async function readBounded(response: Response, maxBytes: number, ms: number, until?: (text: string) => boolean) {
  const decoder = new TextDecoder();
  let seen = '';
  let timer: NodeJS.Timeout | undefined;
  const ended = new TransformStream<Uint8Array, Uint8Array>({
    start: (controller) => {
      timer = setTimeout(() => controller.terminate(), ms);
    },
    transform(chunk, controller) {
      controller.enqueue(chunk);
      seen += until ? decoder.decode(chunk, { stream: true }) : '';
      if (until?.(seen)) controller.terminate();
    },
  });
  const piped = response.body?.pipeTo(ended.writable).catch(() => {});
  try {
    return await readBoundedBody(response.body && ended.readable, maxBytes);
  } finally {
    clearTimeout(timer);
    await piped;
  }
}

export async function exchange(target: ExchangeTarget, c: RequestCase, limits: ExchangeLimits = {}): Promise<Answer> {
  const { answerMs = 10_000, maxBytes = 1024 * 1024, streamMs = 500, streamUntil } = limits;
  const headers = { ...c.headers, ...(c.withToken ? { Authorization: `Bearer ${target.token}` } : {}) };
  const init = { method: c.method, headers, body: c.body ?? null, signal: AbortSignal.timeout(answerMs) };
  const response = await (target.fetch ?? fetch)(`${target.baseUrl}${pathOf(c)}`, init).catch((error: unknown) => {
    const cause = error instanceof Error ? error.message : String(error);
    throw new Broken([`answer: no answer within ${answerMs} ms (${cause})`]);
  });
  const stream = /^text\/event-stream\s*(;|$)/i.test(response.headers.get('content-type') ?? '');
  const [ms, until] = stream ? [streamMs, streamUntil] : [answerMs];
  const { text, truncated } = await readBounded(response, maxBytes, ms, until);
  return answerOf(response, text, truncated);
}

/** The answer of `response` whose body read as `text`; JSON parsed when the content type says JSON. */
export function answerOf(response: Response, text: string, truncated = false): Answer {
  const contentType = response.headers.get('content-type') ?? '';
  const answer: Answer = { status: response.status, headers: response.headers, contentType, text, truncated };
  if (/json/i.test(contentType)) {
    try {
      answer.json = JSON.parse(text);
    } catch {}
  }
  return answer;
}
