// What Node's HTTP server refuses before Fastify sees a request, and how a connection closes after
// an answer sent ahead of the rest of its request.
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorBody } from '@browser-cloud/api-types';
import { errorBody, newRequestId } from './api-error.js';

/**
 * After an answer sent before the request was read (401, 413, a parse error), closing at once would
 * reset the connection and lose the answer: the rest is discarded, within these bounds, first.
 */
export const DRAIN_LIMITS = { maxBytes: 16 * 1024 * 1024, lingerMs: 5_000 } as const;

/** Sockets whose answer went out while the client may still be sending: nothing more is written to them. */
const answered = new WeakSet<Socket>();

export const isAnswered = (socket: Socket): boolean => answered.has(socket);

/** Marks `socket` answered, and destroys it after the linger time unless it closes first. */
function linger(socket: Socket): void {
  answered.add(socket);
  const timer = setTimeout(() => socket.destroy(), DRAIN_LIMITS.lingerMs).unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Closes a connection whose answer was just written raw (a parser error) with a FIN, discarding
 * what the client still sends until it closes its side, the linger time passes or too much arrives.
 */
export function closeAfterAnswer(socket: Socket): void {
  linger(socket);
  const start = socket.bytesRead;
  socket.once('end', () => socket.destroy());
  socket.on('data', () => {
    if (socket.bytesRead - start > DRAIN_LIMITS.maxBytes) socket.destroy();
  });
  socket.end();
  socket.resume();
}

/**
 * Reads and discards the rest of a body an early answer (401, 413, …) left unread. Node would
 * destroy the socket once the `Connection: close` answer is out; instead it only ends its side.
 */
export function drainRequestBody(request: IncomingMessage): void {
  if (request.complete) return;
  const socket = request.socket;
  linger(socket);
  // Node calls destroySoon() once the answer is out; an own property shadows it for this socket only.
  Object.defineProperty(socket, 'destroySoon', { value: () => socket.end(), configurable: true });
  // Whatever was reading the body (a body guard, a parser) has given up on it.
  request.unpipe();
  let discarded = 0;
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DRAIN_LIMITS.maxBytes) socket.destroy();
  });
  request.resume();
}

/** An error of Node's HTTP parser (llhttp's `HPE_*` codes, its own words in `reason`) or of its timeouts. */
export interface ParserError extends Error {
  code?: string;
  reason?: string;
}

/** How long a server waits for a request's headers and for the whole request (a response is never limited). */
export interface RequestTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/**
 * Node's server options for these timeouts, checked every quarter of the shortest, at most every
 * second (Node's default, every 30 s, would let a 200 ms timeout fire 30 s late).
 */
export function serverTimeouts({ headersTimeoutMs, requestTimeoutMs }: RequestTimeouts) {
  const shortest = Math.min(headersTimeoutMs, requestTimeoutMs);
  const connectionsCheckingInterval = Math.max(10, Math.min(1_000, Math.floor(shortest / 4)));
  return { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval };
}

const MALFORMED_HEADER =
  'a header line is malformed or holds a character HTTP does not allow (NUL, a bare CR or LF, a control character)';
const BOTH_LENGTHS = 'Content-Length and Transfer-Encoding together are not allowed';

/** The field and the rule of each malformed request llhttp reports (400). */
const INVALID: Record<string, readonly [field: string, rule: string]> = {
  HPE_INVALID_HEADER_TOKEN: ['headers', MALFORMED_HEADER],
  HPE_LF_EXPECTED: ['headers', MALFORMED_HEADER],
  HPE_CR_EXPECTED: ['headers', MALFORMED_HEADER],
  HPE_INVALID_METHOD: ['method', 'not an HTTP method'],
  HPE_UNEXPECTED_CONTENT_LENGTH: ['headers', BOTH_LENGTHS],
  HPE_INVALID_TRANSFER_ENCODING: ['headers.transfer-encoding', 'must end with chunked'],
  HPE_INVALID_CONTENT_LENGTH: ['headers.content-length', 'must be one decimal number'],
  HPE_INVALID_CHUNK_SIZE: ['body', 'a chunk size is not a hexadecimal number'],
  HPE_INVALID_URL: ['path', 'holds a character a URL does not allow'],
  HPE_INVALID_VERSION: ['version', 'must be HTTP/1.0 or HTTP/1.1'],
};

/** The status and Error body that answer a parser error. */
export function parserErrorAnswer(error: ParserError, limits: RequestTimeouts): { status: number; body: ErrorBody } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const message = `the request did not arrive in time: headers within ${limits.headersTimeoutMs} ms, the whole request within ${limits.requestTimeoutMs} ms`;
    return { status: 408, body: errorBody('request_timeout', message) };
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const message = 'the request line and headers are larger than 16 KiB';
    return { status: 431, body: errorBody('request_header_fields_too_large', message) };
  }
  if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return { status: 413, body: errorBody('payload_too_large', 'the chunk extensions of the body are too large') };
  }
  // llhttp gives one code for both Transfer-Encoding rules; its reason tells them apart.
  const both = error.code === 'HPE_INVALID_TRANSFER_ENCODING' && /content-length/i.test(error.reason ?? '');
  const [field, rule] = both
    ? ['headers', BOTH_LENGTHS]
    : (INVALID[error.code ?? ''] ?? ['request', String(error.reason ?? error.code ?? 'malformed').slice(0, 100)]);
  const details = [{ code: 'invalid_input', message: `${field}: ${rule}` }];
  return { status: 400, body: errorBody('bad_request', 'the request is not valid HTTP/1.1', details) };
}

/**
 * Fastify's `clientErrorHandler`, for what Node's parser and timeouts refuse before Fastify sees
 * the request: an Error body with an `X-Request-Id`, then a graceful close.
 */
export function clientErrorHandler(limits: RequestTimeouts) {
  return function onClientError(error: ParserError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const timeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    // A connection that sent nothing made no request to answer. Once answered, the failed parser
    // repeats its error for every later chunk; a timeout then ends the drain.
    if (isAnswered(socket) || (timeout && socket.bytesRead === 0)) {
      if (timeout) socket.destroy();
      return;
    }
    // Node's own check: never write into a response that has started.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    const { status, body } = parserErrorAnswer(error, limits);
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(text)}\r\n` +
        `X-Request-Id: ${newRequestId()}\r\n` +
        'Connection: close\r\n\r\n' +
        text,
    );
    closeAfterAnswer(socket);
  };
}
