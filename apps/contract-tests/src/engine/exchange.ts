// Sends a case and reads the answer, bounded: a body over the limit, a stream that never ends and
// a server that never answers each end the read instead of hanging the run.
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

export interface ExchangeTarget {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch | undefined;
}

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

export class NoAnswerError extends Error {
  override name = 'NoAnswerError';
}

async function readBounded(
  response: Response,
  maxBytes: number,
  untilMs: number | undefined,
  until?: ((text: string) => boolean) | undefined,
) {
  const reader = response.body?.getReader();
  if (!reader) return { text: '', truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const deadline = untilMs === undefined ? undefined : Date.now() + untilMs;
  const decoder = new TextDecoder();
  let seen = '';
  try {
    for (;;) {
      // Past the deadline the timer is 0 ms: data already queued still wins the race (a read
      // settles in microtasks, a timer in a later macrotask), so a slow host loses no chunk.
      const remaining = deadline === undefined ? undefined : Math.max(0, deadline - Date.now());
      let timer: NodeJS.Timeout | undefined;
      const next = await Promise.race([
        reader.read(),
        ...(remaining === undefined
          ? []
          : [new Promise<'time'>((resolve) => (timer = setTimeout(() => resolve('time'), remaining)))]),
      ]);
      clearTimeout(timer);
      if (next === 'time' || next.done) break;
      chunks.push(next.value);
      size += next.value.byteLength;
      if (size >= maxBytes) {
        truncated = true;
        break;
      }
      if (until !== undefined) {
        seen += decoder.decode(next.value, { stream: true });
        if (until(seen)) break;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes)), truncated };
}

export async function exchange(target: ExchangeTarget, c: RequestCase, limits: ExchangeLimits = {}): Promise<Answer> {
  const { answerMs = 10_000, maxBytes = 1024 * 1024, streamMs = 500, streamUntil } = limits;
  const headers: Record<string, string> = { ...c.headers };
  if (c.withToken) headers.Authorization = `Bearer ${target.token}`;
  let response: Response;
  try {
    response = await (target.fetch ?? fetch)(`${target.baseUrl}${pathOf(c)}`, {
      method: c.method,
      headers,
      body: c.body ?? null,
      signal: AbortSignal.timeout(answerMs),
    });
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new NoAnswerError(`no answer within ${answerMs} ms (${cause})`);
  }
  const contentType = response.headers.get('content-type') ?? '';
  const stream = contentType.split(';')[0]!.trim().toLowerCase() === 'text/event-stream';
  const { text, truncated } = await readBounded(
    response,
    maxBytes,
    stream ? streamMs : answerMs,
    stream ? streamUntil : undefined,
  );
  const answer: Answer = { status: response.status, headers: response.headers, contentType, text, truncated };
  if (/json/i.test(contentType)) {
    try {
      answer.json = JSON.parse(text);
    } catch {}
  }
  return answer;
}
