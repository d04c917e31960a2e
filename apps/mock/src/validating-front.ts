// An HTTP server in front of Prism: it answers what the document forbids itself (400/401 with an
// Error body, before Prism sees the request) and passes everything else to Prism unchanged.
import {
  createServer,
  type IncomingMessage,
  request as httpRequest,
  STATUS_CODES,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorBody } from '@browser-cloud/api-types';
import { checkRequest, type Refusal } from './check-request.js';
import { MockStartError } from './mock-start-error.js';
import type { OperationRules } from './operation-rules.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ValidatingFrontOptions {
  readonly rules: readonly OperationRules[];
  /**
   * Where valid requests go: Prism's base URL, or a promise of it while Prism is starting. A
   * request that arrives before it settles is held until Prism can answer it (never a 503); if
   * the promise rejects, held and later requests get 502.
   */
  readonly upstream: string | PromiseLike<string>;
  readonly port?: number | undefined;
  readonly host?: string | undefined;
  /** Larger bodies get 413 without being read further. Default 1 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** A request (headers and body) that takes longer is answered 408 and its connection closed. Default 30 s. */
  readonly requestTimeoutMs?: number | undefined;
}

export interface ValidatingFront {
  readonly url: string;
  close(): Promise<void>;
}

/** Headers of one connection, not of the message: never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** @throws MockStartError (`port-in-use`) when the port is taken. */
export async function startValidatingFront(options: ValidatingFrontOptions): Promise<ValidatingFront> {
  const { rules, host = '127.0.0.1', maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = options;
  const upstream: Promise<URL | Error> = Promise.resolve(options.upstream).then(
    (url) => new URL(url),
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // Node checks the timeouts every `connectionsCheckingInterval` (30 s by default).
  const server = createServer(
    { requestTimeout, connectionsCheckingInterval: Math.min(requestTimeout / 2, 1_000) },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        // Nothing above throws on purpose; if it does, the client still gets an Error body.
        sendError(res, 500, {
          code: 'internal_error',
          message: `the mock's front failed: ${(error as Error).message}`,
        });
      });
    },
  );
  server.headersTimeout = Math.min(requestTimeout, 10_000);
  // Errors of Node's HTTP parser (bad headers, bad chunking, timeouts) get an Error body too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify({
      code: 'bad_request',
      message: `the request could not be read (${error.code ?? 'parse error'})`,
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBodyBytes) return refuseTooLarge(req, res);
    const body = await readBody(req, maxBodyBytes);
    if (body === 'too-large') return refuseTooLarge(req, res);
    const refusal = checkRequest(rules, {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body: body.length === 0 ? undefined : body,
    });
    if (refusal) return refuse(res, refusal);
    const target = await upstream;
    if (target instanceof Error) {
      sendError(res, 502, { code: 'bad_gateway', message: `Prism did not start (${target.message})` });
      return;
    }
    forward(req, res, body, target);
  }

  function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
    // Read on (bounded by the request timeout) so the client sees the answer, not a reset.
    req.resume();
    res.setHeader('connection', 'close');
    sendError(res, 413, {
      code: 'payload_too_large',
      message: `the request body is larger than ${maxBodyBytes} bytes`,
    });
  }

  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, upstream: URL): void {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    headers['host'] = upstream.host;
    headers['content-length'] = String(body.length);
    if (body.length === 0 && req.headers['content-length'] === undefined) delete headers['content-length'];
    const outgoing = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        const forwarded: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) forwarded[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, forwarded);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    // The client went away: so does the request to Prism (a stream would otherwise run on).
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return void res.destroy();
      sendError(res, 502, {
        code: 'bad_gateway',
        message: `Prism did not answer at ${upstream.origin} (${error.code ?? error.message})`,
      });
    });
    outgoing.end(body);
  }

  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      reject(
        error.code === 'EADDRINUSE'
          ? new MockStartError(
              'port-in-use',
              `port ${port} on ${host} is already in use: stop what holds it, or choose another port (PORT=…)`,
            )
          : error,
      );
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close: () => closeServer(server),
  };
}

/** The body, or `too-large` once more than `limit` bytes arrived (the rest is not kept). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client closed the request before its body ended'));
    });
  });
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  for (const [name, value] of Object.entries(refusal.headers ?? {})) res.setHeader(name, value);
  sendError(res, refusal.status, refusal.body);
}

function sendError(res: ServerResponse, status: number, body: ErrorBody): void {
  if (res.headersSent) return void res.destroy();
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
