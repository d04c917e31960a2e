import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { validateError } from '@browser-cloud/api-types/validators';
import { expect } from 'vitest';
import { loadSandboxDocument } from '../src/openapi/sandbox-document.js';
import {
  DEFAULT_FIXTURE_REFS,
  flowTypesOf,
  startSandbox,
  type RunningSandbox,
  type StartSandboxOptions,
} from '../src/index.js';

export const REFS = DEFAULT_FIXTURE_REFS;
/** The document's flow types: a login, and the re-authentication stored credentials trigger. */
export const FLOW = flowTypesOf(loadSandboxDocument());
export const TOKENS = DEFAULT_FIXTURE_REFS.tokens;

/** A sandbox on a free loopback port, quiet. */
export function start(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, quiet: true, ...options });
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** A raw body, sent as is. */
  raw?: string;
  headers?: Record<string, string>;
}

/** A JSON call; `token: null` sends no Authorization header. */
export async function call(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? TOKENS.owner : options.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
  return { status: response.status, body: parsed, headers: response.headers };
}

export const login = (sandbox: RunningSandbox, connection: string, body?: unknown, token?: string | null) =>
  call(sandbox, 'POST', `/auth/connections/${encodeURIComponent(connection)}/login`, {
    ...(body === undefined ? {} : { body }),
    ...(token === undefined ? {} : { token }),
  });

export const rename = (sandbox: RunningSandbox, idOrName: string, body: unknown, token?: string | null) =>
  call(sandbox, 'PATCH', `/profiles/${encodeURIComponent(idOrName)}`, {
    body,
    ...(token === undefined ? {} : { token }),
  });

export const inspect = (sandbox: RunningSandbox, path: string, method = 'GET', body?: unknown) =>
  call(sandbox, method, `/_sandbox${path}`, { token: null, ...(body === undefined ? {} : { body }) });

export async function appendLines(
  sandbox: RunningSandbox,
  browser: string,
  source: Record<string, string>,
  lines: string[],
) {
  const r = await inspect(sandbox, `/browsers/${browser}/logs`, 'POST', { ...source, lines });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r;
}

/** Asserts an Error body of the document with this status and code; returns it. */
export function expectError(
  response: { status: number; body: unknown },
  status: number,
  code: string,
): { code: string; message: string; details?: Array<{ code?: string; message?: string }> } {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(validateError(response.body), JSON.stringify(validateError.errors)).toBe(true);
  const body = response.body as { code: string; message: string; details?: Array<{ code?: string; message?: string }> };
  expect(body.code).toBe(code);
  return body;
}

/** The detail messages of an Error body. */
export function detailMessages(body: { details?: Array<{ message?: string }> }): string[] {
  return (body.details ?? []).map((d) => d.message ?? '');
}

/** One parsed SSE block: an event, a comment or a retry hint, in arrival order. */
export type SseItem =
  | { kind: 'event'; event: EventSourceMessage }
  | { kind: 'comment'; text: string }
  | { kind: 'retry'; ms: number };

/**
 * A log stream read with a spec parser (eventsource-parser). `next(n)` waits for n more
 * events; `items` keeps everything seen, comments and retry hints included.
 */
export class StreamReader {
  readonly items: SseItem[] = [];
  readonly response: Response;
  readonly #controller: AbortController;
  #done: Promise<void>;
  #waiters: Array<() => void> = [];
  ended = false;

  private constructor(response: Response, controller: AbortController) {
    this.response = response;
    this.#controller = controller;
    const parser = createParser({
      onEvent: (event) => this.#push({ kind: 'event', event }),
      onComment: (text) => this.#push({ kind: 'comment', text }),
      onRetry: (ms) => this.#push({ kind: 'retry', ms }),
    });
    this.#done = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
          parser.feed(decoder.decode(chunk, { stream: true }));
      } catch {
        // Aborted by the test.
      } finally {
        this.ended = true;
        this.#wake();
      }
    })();
  }

  static async open(
    sandbox: RunningSandbox,
    browser: string,
    query: string,
    options: { token?: string; lastEventId?: string } = {},
  ): Promise<StreamReader> {
    const controller = new AbortController();
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.token ?? TOKENS.owner}`,
      accept: 'text/event-stream',
    };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const response = await fetch(`${sandbox.url}/browsers/${browser}/logs/stream?${query}`, {
      headers,
      signal: controller.signal,
    });
    return new StreamReader(response, controller);
  }

  get events(): EventSourceMessage[] {
    return this.items.flatMap((i) => (i.kind === 'event' ? [i.event] : []));
  }

  /** Resolves once `count` events in total were received (or the stream ended). */
  async waitForEvents(count: number): Promise<EventSourceMessage[]> {
    await this.#until(() => this.events.length >= count);
    return this.events;
  }

  async waitFor(predicate: () => boolean): Promise<void> {
    await this.#until(predicate);
  }

  /** Resolves when the server ended the response. */
  async finished(): Promise<void> {
    await this.#done;
  }

  abort(): void {
    this.#controller.abort();
  }

  #push(item: SseItem): void {
    this.items.push(item);
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  async #until(predicate: () => boolean): Promise<void> {
    while (!predicate() && !this.ended) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}
