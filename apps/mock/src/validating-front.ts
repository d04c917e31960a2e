// The mock's front: it refuses what the document forbids (404/405, 401, 400, 413, with an Error
// body, before Prism sees the request) and passes everything else to Prism unchanged. Requests
// are checked by the sandbox's one request checker, and refused as the sandbox refuses them.
import { type IncomingMessage, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import {
  ApiError,
  checkingFastify,
  checkRequest,
  createRequestChecker,
  operationRoute,
  type RequestChecker,
  unauthorized,
} from '@browser-cloud/request-checker';
import type { FastifyRequest } from 'fastify';
import { MockStartError } from './mock-start-error.js';

/** Any path segment Node lets through (16 KiB of headers): the document's rules limit ids, not the router. */
const MAX_PARAM_LENGTH = 16 * 1024;

export interface ValidatingFrontOptions {
  /** The checker of the document the mock serves; the repository's document by default. */
  readonly checker?: RequestChecker | undefined;
  /**
   * Where valid requests go: Prism's base URL, or a promise of it while Prism starts; a request
   * is held until it settles (never a 503), and gets 502 if it rejects.
   */
  readonly upstream: string | PromiseLike<string>;
  readonly port?: number | undefined;
  readonly host?: string | undefined;
  /** Larger bodies get 413 without being read further. Default 1 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** A request (headers and body) that takes longer is answered 408 and its connection closed. Default 30 s. */
  readonly requestTimeoutMs?: number | undefined;
}

export type ValidatingFront = { readonly url: string; close(): Promise<void> };

/** Headers of one connection, not of the message: never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(
  'connection keep-alive proxy-connection proxy-authenticate proxy-authorization te trailer transfer-encoding upgrade'.split(
    ' ',
  ),
);

const badGateway = (message: string) => new ApiError({ status: 502, body: { code: 'bad_gateway', message } });

function endToEnd(headers: NodeJS.Dict<string | string[]>): Record<string, string | string[]> {
  const kept = Object.entries(headers).filter(([name, value]) => value !== undefined && !HOP_BY_HOP.has(name));
  return Object.fromEntries(kept) as Record<string, string | string[]>;
}

/** @throws MockStartError (`port-in-use`) when the port is taken. */
export async function startValidatingFront(options: ValidatingFrontOptions): Promise<ValidatingFront> {
  const { host = '127.0.0.1', port = 0, maxBodyBytes = 1024 * 1024, requestTimeoutMs = 30_000 } = options;
  const checker = options.checker ?? createRequestChecker(loadOpenApiDocument());
  // Awaited by each request: a rejection (Prism did not start) is answered 502 there.
  const upstream = Promise.resolve(options.upstream).then((url) => new URL(url));
  upstream.catch(() => {});
  const app = checkingFastify({
    checker,
    bodyLimit: maxBodyBytes,
    maxParamLength: MAX_PARAM_LENGTH,
    requestTimeoutMs,
    headersTimeoutMs: Math.min(requestTimeoutMs, 10_000),
  });
  // One route per operation, which knows it: Fastify routes each request once.
  for (const operation of checker.operations) {
    app.route({
      ...operationRoute(operation),
      // Before the body is read. A mock cannot know real keys: like Prism, it checks that bearer
      // credentials are there, whatever they hold (the official SDK's tests send `Bearer My API Key`).
      onRequest: async (request) => {
        if (operation.secured && !/^Bearer +\S/i.test(request.headers.authorization ?? '')) throw unauthorized();
      },
      handler: async (request, reply) => {
        checkRequest(checker, request);
        const target = await upstream.catch((error: unknown) => {
          throw badGateway(`Prism did not start (${error instanceof Error ? error.message : String(error)})`);
        });
        const answer = await forward(request, (request.body as Buffer | undefined) ?? Buffer.alloc(0), target);
        // Prism's answer goes back as it comes (a stream included); a client that goes away ends it.
        return reply
          .code(answer.statusCode ?? 502)
          .headers(endToEnd(answer.headers))
          .send(answer);
      },
    });
  }

  await app.listen({ port, host }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    const message = `port ${port} on ${host} is already in use: stop what holds it, or choose another port (PORT=…)`;
    throw new MockStartError('port-in-use', message);
  });
  const { port: actual } = app.server.address() as AddressInfo;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`, close: () => app.close() };
}

/** Sends the request to Prism as it came (method, path, query, end-to-end headers, body); resolves with Prism's answer. */
function forward(request: FastifyRequest, body: Buffer, upstream: URL): Promise<IncomingMessage> {
  const headers = endToEnd(request.headers);
  headers['host'] = upstream.host;
  if (body.length > 0 || request.headers['content-length'] !== undefined)
    headers['content-length'] = String(body.length);
  const { method, url: path } = request;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: upstream.hostname, port: upstream.port, method, path, headers }, resolve);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      reject(badGateway(`Prism did not answer at ${upstream.origin} (${error.code ?? error.message})`));
    });
    outgoing.end(body);
  });
}
