// The mock's front: it refuses what the document forbids (404/405, 401, 400, with an Error body,
// before Prism sees the request) and passes everything else to Prism unchanged. Requests are
// checked by the sandbox's one request checker, so the mock and the sandbox refuse the same
// requests with the same words.
import { once } from 'node:events';
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import {
  clientErrorHandler,
  createRequestChecker,
  drainRequestBody,
  isRefusal,
  type Refusal,
  type RequestChecker,
} from '@browser-cloud/sandbox';
import { MockStartError } from './mock-start-error.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ValidatingFrontOptions {
  /** The checker of the document the mock serves; the repository's document by default. */
  readonly checker?: RequestChecker | undefined;
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
const HOP_BY_HOP = new Set(
  'connection keep-alive proxy-connection proxy-authenticate proxy-authorization te trailer transfer-encoding upgrade'.split(
    ' ',
  ),
);

function endToEnd(headers: NodeJS.Dict<string | string[]>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string | string[]] => {
      return entry[1] !== undefined && !HOP_BY_HOP.has(entry[0]);
    }),
  );
}

const UNAUTHORIZED: Refusal = {
  status: 401,
  body: { code: 'unauthorized', message: 'missing or invalid authorization token' },
};

/** @throws MockStartError (`port-in-use`) when the port is taken. */
export async function startValidatingFront(options: ValidatingFrontOptions): Promise<ValidatingFront> {
  const { host = '127.0.0.1', maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = options;
  const checker = options.checker ?? createRequestChecker(loadOpenApiDocument());
  const upstream: Promise<URL | Error> = Promise.resolve(options.upstream).then(
    (url) => new URL(url),
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const limits = { requestTimeoutMs, headersTimeoutMs: Math.min(requestTimeoutMs, 10_000) };
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // Node checks the timeouts every `connectionsCheckingInterval` (30 s by default).
      connectionsCheckingInterval: Math.min(requestTimeoutMs / 2, 1_000),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        // Nothing above throws on purpose; if it does, the client still gets an Error body.
        const message = `the mock's front failed: ${(error as Error).message}`;
        send(req, res, { status: 500, body: { code: 'internal_error', message } });
      });
    },
  );
  // Errors of Node's HTTP parser (bad headers, bad chunking, timeouts) get an Error body too.
  server.on('clientError', clientErrorHandler(limits));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [pathname = '', search = ''] = (req.url ?? '/').split(/\?(.*)/s);
    const match = checker.route(req.method ?? 'GET', pathname);
    if (isRefusal(match)) return send(req, res, match);
    // A mock cannot know real keys: like Prism, it checks that bearer credentials are there,
    // whatever they hold (the official SDK's tests send `Bearer My API Key`).
    const authorization = req.headers.authorization ?? '';
    if (match.operation.secured && !/^Bearer +\S/i.test(authorization)) return send(req, res, UNAUTHORIZED);
    const body = await readBody(req, maxBodyBytes);
    if (body === undefined) {
      const message = `the request body is larger than ${maxBodyBytes} bytes`;
      return send(req, res, { status: 413, body: { code: 'payload_too_large', message } });
    }
    const checked = checker.check(match, { search, headers: req.headers, body });
    if (isRefusal(checked)) return send(req, res, checked);
    const target = await upstream;
    if (target instanceof Error) {
      const message = `Prism did not start (${target.message})`;
      return send(req, res, { status: 502, body: { code: 'bad_gateway', message } });
    }
    forward(req, res, body, target);
  }

  const port = options.port ?? 0;
  await once(server.listen(port, host), 'listening').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    const message = `port ${port} on ${host} is already in use: stop what holds it, or choose another port (PORT=…)`;
    throw new MockStartError('port-in-use', message);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, upstream: URL): void {
  const headers = endToEnd(req.headers);
  headers['host'] = upstream.host;
  headers['content-length'] = String(body.length);
  if (body.length === 0 && req.headers['content-length'] === undefined) delete headers['content-length'];
  const outgoing = httpRequest(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
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
    const message = `Prism did not answer at ${upstream.origin} (${error.code ?? error.message})`;
    send(req, res, { status: 502, body: { code: 'bad_gateway', message } });
  });
  outgoing.end(body);
}

/** The body, or undefined once more than `limit` bytes are announced or arrived (the rest is not kept). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        resolve(undefined);
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client closed the request before its body ended'));
    });
  });
}

/**
 * Answers with an Error body. An answer before the whole body arrived (401, 413) closes the
 * connection once the client could read it: the rest of the body is read and discarded.
 */
function send(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent) return void res.destroy();
  const text = JSON.stringify(refusal.body);
  res.writeHead(refusal.status, {
    ...refusal.headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(req.complete ? {} : { connection: 'close' }),
  });
  res.end(text);
  drainRequestBody(req);
}
