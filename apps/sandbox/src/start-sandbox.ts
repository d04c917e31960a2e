import type { AddressInfo } from 'node:net';
import { type OpenApiDocument, type Operation, resources } from '@browser-cloud/openapi-document';
import cors from '@fastify/cors';
import { checkingFastify, createRequestChecker, responseCheck } from '@browser-cloud/request-checker';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_FIXTURE } from './fixture/default-fixture.js';
import type { SandboxFixture } from './fixture/fixture-schema.js';
import { checkFixture, type FixtureSummary, loadFixtureFile, summarizeFixture } from './fixture/load-fixture.js';
import { flowTypesOf, loadSandboxDocument } from './openapi/sandbox-document.js';
import { registerApiRoutes, type ServedOperations } from './routes/api-routes.js';
import { registerSandboxRoutes } from './routes/sandbox-routes.js';
import { SandboxState } from './state/store.js';

/** The numeric options' defaults. */
const DEFAULTS = {
  /** Lifetime of a login flow. Default 10 minutes. */
  flowTtlMs: 10 * 60_000,
  /** Interval of the log stream's comment keep-alives. Default 15 s. */
  keepAliveMs: 15_000,
  /** The log stream's `retry:` hint. Default 1000 ms. */
  retryMs: 1000,
  /** Largest accepted request body, in bytes. Default 64 KiB. */
  bodyLimit: 64 * 1024,
  /** The request line and headers must arrive within this. Default 10 s; at most `requestTimeoutMs`. */
  headersTimeoutMs: 10_000,
  /** The whole request, body included, must arrive within this (responses are not limited). Default 30 s. */
  requestTimeoutMs: 30_000,
  /** An idle kept-alive connection is closed after this. Default 5 s. */
  keepAliveTimeoutMs: 5_000,
};

/** Options of `startSandbox`; every one has a default. */
export interface StartSandboxOptions extends Partial<typeof DEFAULTS> {
  /** TCP port; 0 picks a free one. Default: `PORT` from the environment, else 4020. */
  port?: number;
  /** A loopback address. Default `127.0.0.1`. */
  host?: string;
  /** The fixture, or the path of a JSON fixture file. Default: `DEFAULT_FIXTURE`. */
  fixture?: SandboxFixture | string;
  /** No request log (method, path, status; never headers). Default true (the CLI turns the log on). */
  quiet?: boolean;
  /** Where the request log's JSON lines go. Default stdout. */
  logStream?: { write(line: string): void };
  /** Check every API response against the document; a violation becomes a 500. Default true. */
  checkResponses?: boolean;
  /** The clock, for tests. Default `Date.now`. */
  now?: () => number;
  /** A parsed OpenAPI document instead of the repository's. */
  document?: OpenApiDocument;
  /** Origins whose pages may call the API from a browser (`http://127.0.0.1:5173`). Default none: no CORS at all. */
  corsOrigins?: readonly string[];
}

/** A running sandbox. */
export interface RunningSandbox {
  /** Base URL of the API, e.g. `http://127.0.0.1:4020` (no trailing slash). */
  url: string;
  host: string;
  port: number;
  /** The tokens and ids of the fixture it serves. */
  fixture: FixtureSummary;
  /** The Fastify instance (for `inject`). */
  app: FastifyInstance;
  /** The in-memory state: `state.reset()` goes back to the fixture. */
  state: SandboxState;
  /** The operations answered with the document's example, after the auth and request checks. */
  fromExamples: readonly Operation[];
  /** What the sandbox does for each operation (the store, a seed rule, an example), as start-up logs it. */
  served: ServedOperations;
  /** Ends open streams and stops listening. */
  close(): Promise<void>;
}

/** Longest id a path may carry; a longer one names nothing (404). */
const MAX_ID_LENGTH = 1024;

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

/** Starts the sandbox on a loopback address and resolves once it accepts connections. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) throw new Error(`the sandbox listens on loopback only, not on ${host}`);
  const port = options.port ?? Number(process.env['PORT'] || 4020);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${port}`);
  // Read once: the fixture's telemetry defaults and the app are checked against the same document.
  const document = options.document ?? loadSandboxDocument();
  const fixture =
    typeof options.fixture === 'string'
      ? await loadFixtureFile(options.fixture, document)
      : checkFixture(options.fixture ?? DEFAULT_FIXTURE, document);
  const limits = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS) as Array<keyof typeof DEFAULTS>) {
    const value = options[name] ?? DEFAULTS[name];
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${value}`);
    limits[name] = value;
  }
  const { headersTimeoutMs, requestTimeoutMs } = limits;
  // Node refuses a header timeout longer than the request's: the headers are part of the request.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(`headersTimeoutMs (${headersTimeoutMs}) must not exceed requestTimeoutMs (${requestTimeoutMs})`);
  }

  const checker = createRequestChecker(document);
  const app = checkingFastify({
    ...limits,
    checker,
    maxParamLength: MAX_ID_LENGTH,
    // Method, path and status only: no headers, so no token ever reaches a log line.
    logger: options.quiet === false && {
      serializers: {
        req: (req) => ({ method: req.method, url: req.url.split('?')[0] ?? '' }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
  });
  if (options.corsOrigins?.length) await allowCorsOrigins(app, options.corsOrigins, checker.operations);
  if (options.checkResponses !== false) app.addHook('onSend', responseCheck(document));

  const state = new SandboxState(fixture, {
    ...limits,
    now: options.now ?? Date.now,
    publicUrl: () => url,
    flowTypes: flowTypesOf(document),
    document,
    model: resources(document),
  });
  const served = registerApiRoutes(app, document, state, checker);
  registerSandboxRoutes(app, state);
  for (const line of startupLines(served, state)) app.log.info(line);

  // Open streams would hold `close()` forever: end them first.
  app.addHook('preClose', async () => state.dispose());
  await app.listen({ host, port });
  const { port: actualPort } = app.server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    host,
    port: actualPort,
    fixture: summarizeFixture(fixture, state.settings.model),
    app,
    state,
    fromExamples: served.fromExamples,
    served,
    close: () => (closing ??= app.close()),
  };
}

/** What start-up says of the operations: which the store keeps (CRUD on which resource), which the seed's rules serve, which examples answer, and the query parameters the sandbox does not act on. */
function startupLines(served: ServedOperations, state: SandboxState): string[] {
  const named = (o: Operation) => `${o.operationId} (${o.method.toUpperCase()} ${o.path})`;
  const stored = served.fromStore.map((o) => {
    const role = state.settings.model.roleOf(o);
    return `${o.operationId} (${role?.action === 'action' ? 'answers' : role?.action} ${role?.resource.key})`;
  });
  return [
    stored.length > 0 && `kept in the store: ${stored.join(', ')}`,
    served.bySeedRules.length > 0 && `served by the seed's rules: ${served.bySeedRules.map(named).join(', ')}`,
    served.fromExamples.length > 0 &&
      `served from the document's examples, with no state behind them: ${served.fromExamples.map(named).join(', ')}`,
    served.unhonoured.length > 0 &&
      `query parameters the sandbox checks but does not act on: ${served.unhonoured
        .map(({ operation, parameters }) => `${operation.operationId} ${parameters.join(', ')}`)
        .join('; ')}`,
  ].filter((line): line is string => typeof line === 'string');
}

// What a page may read of an answer (the request id, the retry hints) and send (the token, a body, a resume cursor).
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'x-should-retry', 'retry-after', 'retry-after-ms'];
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'last-event-id', 'cache-control'];

/**
 * Lets pages of `origins` call the API's methods (no credentials mode: the token travels in
 * `Authorization`). Each must be an origin exactly, so that opening the sandbox is a choice of page.
 * @throws Error naming an entry that is not an origin.
 */
async function allowCorsOrigins(app: FastifyInstance, origins: readonly string[], operations: readonly Operation[]) {
  for (const origin of origins) {
    const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new Error(`corsOrigins: ${JSON.stringify(origin)} is not an origin (like http://127.0.0.1:5173)`);
    }
  }
  await app.register(cors, {
    origin: [...origins],
    methods: [...new Set(operations.map((operation) => operation.method.toUpperCase()))],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    strictPreflight: true,
  });
}
