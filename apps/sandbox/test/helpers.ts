import { EventEmitter, once } from 'node:events';
import { connect, type Socket } from 'node:net';
import type { ErrorBody } from '@browser-cloud/api-types';
import { validateError } from '@browser-cloud/api-types/validators';
import { getAt } from '@browser-cloud/openapi-document';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { expect } from 'vitest';
import {
  DEFAULT_FIXTURE_REFS,
  flowTypesOf,
  loadSandboxDocument,
  type RunningSandbox,
  type StartSandboxOptions,
  startSandbox,
} from '../src/index.js';

export const REFS = DEFAULT_FIXTURE_REFS;
/** The document's flow types: a login, and the re-authentication stored credentials trigger. */
export const FLOW = flowTypesOf(loadSandboxDocument());
export const TOKENS = DEFAULT_FIXTURE_REFS.tokens;

/** `fields` without those the document's `schema` (a component's name) does not declare. */
export function declared(schema: string, fields: Record<string, unknown>): Record<string, unknown> {
  const properties = getAt(loadSandboxDocument(), `#/components/schemas/${schema}/properties`) as object;
  return Object.fromEntries(Object.entries(fields).filter(([name]) => Object.hasOwn(properties, name)));
}

/** A sandbox on a free loopback port, quiet. */
export function start(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, quiet: true, ...options });
}

/** An answer: its body parsed when it is JSON, else its text. */
export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

const parsed = (text: string, headers: Headers): unknown =>
  (headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;

/** A JSON call; `token: null` sends no Authorization header, `raw` a body as is. */
export async function call(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: { token?: string | null | undefined; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const { token = TOKENS.owner } = options;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  let body = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: response.status, body: parsed(await response.text(), response.headers), headers: response.headers };
}

export const login = (sandbox: RunningSandbox, connection: string, body?: unknown, token?: string | null) =>
  call(sandbox, 'POST', `/auth/connections/${encodeURIComponent(connection)}/login`, { body, token });

export const rename = (sandbox: RunningSandbox, idOrName: string, body: unknown, token?: string | null) =>
  call(sandbox, 'PATCH', `/profiles/${encodeURIComponent(idOrName)}`, { body, token });

export const inspect = (sandbox: RunningSandbox, path: string, method = 'GET', body?: unknown) =>
  call(sandbox, method, `/_sandbox${path}`, { token: null, body });

export async function appendLines(sandbox: RunningSandbox, browser: string, source: object, lines: string[]) {
  const r = await inspect(sandbox, `/browsers/${browser}/logs`, 'POST', { ...source, lines });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r;
}

/** Asserts an Error body of the document, in JSON with a request id, with this status and code; returns it. */
export function expectError(response: Answer, status: number, code: string): ErrorBody {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
  expect(validateError(response.body), JSON.stringify(validateError.errors)).toBe(true);
  expect((response.body as ErrorBody).code).toBe(code);
  return response.body as ErrorBody;
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

/** A log stream read with a spec parser: `items` keeps all it saw, comments and retry hints included. */
export class StreamReader {
  readonly items: SseItem[] = [];
  ended = false;
  readonly #changed = new EventEmitter();
  readonly #done: Promise<void>;

  private constructor(
    readonly response: Response,
    readonly abort: () => void,
  ) {
    const push = (item: SseItem) => {
      this.items.push(item);
      this.#changed.emit('change');
    };
    const parser = createParser({
      onEvent: (event) => push({ kind: 'event', event }),
      onComment: (text) => push({ kind: 'comment', text }),
      onRetry: (ms) => push({ kind: 'retry', ms }),
    });
    const texts = response.body!.pipeThrough(new TextDecoderStream()) as unknown as AsyncIterable<string>;
    this.#done = (async () => {
      try {
        for await (const text of texts) parser.feed(text);
      } catch {
        // Aborted by the test.
      }
      this.ended = true;
      this.#changed.emit('change');
    })();
  }

  static async open(
    sandbox: RunningSandbox,
    browser: string,
    query: string,
    options: { token?: string; lastEventId?: string } = {},
  ) {
    const controller = new AbortController();
    const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? TOKENS.owner}` };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const { signal } = controller;
    const response = await fetch(`${sandbox.url}/browsers/${browser}/logs/stream?${query}`, { headers, signal });
    return new StreamReader(response, () => controller.abort());
  }

  get events(): EventSourceMessage[] {
    return this.items.flatMap((i) => (i.kind === 'event' ? [i.event] : []));
  }

  /** Resolves once `predicate` holds, or the stream ended. */
  async waitFor(predicate: () => boolean): Promise<void> {
    while (!predicate() && !this.ended) await once(this.#changed, 'change');
  }

  /** Resolves once `count` events in total were received (or the stream ended). */
  waitForEvents(count: number): Promise<void> {
    return this.waitFor(() => this.events.length >= count);
  }

  /** Resolves when the server ended the response. */
  finished(): Promise<void> {
    return this.#done;
  }
}

/** How the server left a raw connection: a FIN, a reset, another error. */
export type RawClose = 'end' | 'reset' | 'error';

/** A connection written byte by byte, for what fetch refuses to send (malformed headers, stalled bodies…). */
export class RawConnection {
  received = Buffer.alloc(0);
  #close: RawClose | undefined;
  #error = '';
  readonly #closed: Promise<RawClose>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.#close ??= error.code === 'ECONNRESET' ? 'reset' : 'error';
      this.#error ||= String(error.code);
    });
    socket.on('end', () => {
      this.#close ??= 'end';
    });
    // Not events.once: it would reject on the error that comes before the close of a reset.
    this.#closed = new Promise((resolve) => socket.once('close', () => resolve(this.#close ?? 'end')));
  }

  static async open(url: string): Promise<RawConnection> {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    await once(socket, 'connect');
    return new RawConnection(socket);
  }

  /** Writes without waiting; a write the server refused ends the connection (see `closed`). */
  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  /** Resolves when the server closed the connection. */
  closed(): Promise<RawClose> {
    return this.#closed;
  }

  /** Resolves with the first complete response; rejects if the connection ends before one. */
  async response(): Promise<Answer> {
    for (;;) {
      const response = parseResponse(this.received, this.#close !== undefined);
      if (response !== undefined) return response;
      if (this.#close !== undefined) {
        const received = JSON.stringify(this.received.toString('latin1').slice(0, 200));
        throw new Error(`connection closed (${this.#close} ${this.#error}) before a response; got ${received}`);
      }
      await Promise.race([once(this.socket, 'data').catch(() => {}), this.#closed]);
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Sends `request` on a new connection and returns the first response. */
export async function rawRequest(url: string, request: string | Buffer): Promise<Answer> {
  const connection = await RawConnection.open(url);
  try {
    connection.write(request);
    return await connection.response();
  } finally {
    connection.destroy();
  }
}

function parseResponse(bytes: Buffer, closed: boolean): Answer | undefined {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers = new Headers(lines.map((line) => line.split(/:\s*(.*)/s, 2) as [string, string]));
  const rest = bytes.subarray(headEnd + 4);
  const length = headers.get('content-length');
  // Without a length, the body runs to the end of the connection.
  if (length === null ? !closed : rest.length < Number(length)) return undefined;
  const text = rest.subarray(0, length === null ? undefined : Number(length)).toString('utf8');
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]), headers, body: parsed(text, headers) };
}
