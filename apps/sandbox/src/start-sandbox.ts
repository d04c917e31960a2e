import type { FastifyInstance } from 'fastify';
import { buildSandboxApp } from './app.js';
import { checkCorsOrigins } from './http/cors.js';
import { DEFAULT_FIXTURE } from './fixture/default-fixture.js';
import { checkFixture, loadFixtureFile, summarizeFixture } from './fixture/load-fixture.js';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from './http/connection-limits.js';
import type { SandboxFixture } from './fixture/fixture-schema.js';
import type { FixtureSummary } from './fixture/load-fixture.js';
import type { OpenApiDocument, Operation } from '@browser-cloud/openapi-document';
import { loadSandboxDocument } from './openapi/sandbox-document.js';
import type { SandboxState } from './state/sandbox-state.js';

/** Options of `startSandbox`; every one has a default. */
export interface StartSandboxOptions {
  /** TCP port; 0 picks a free one. Default: `PORT` from the environment, else 4020. */
  port?: number;
  /** A loopback address. Default `127.0.0.1`. */
  host?: string;
  /** The fixture, or the path of a JSON fixture file. Default: `DEFAULT_FIXTURE`. */
  fixture?: SandboxFixture | string;
  /** Lifetime of a login flow. Default 10 minutes. */
  flowTtlMs?: number;
  /** Interval of the log stream's comment keep-alives. Default 15 s. */
  keepAliveMs?: number;
  /** The log stream's `retry:` hint. Default 1000 ms. */
  retryMs?: number;
  /** Largest accepted request body, in bytes. Default 64 KiB. */
  bodyLimit?: number;
  /** The request line and headers must arrive within this. Default 10 s; at most `requestTimeoutMs`. */
  headersTimeoutMs?: number;
  /** The whole request, body included, must arrive within this (responses are not limited). Default 30 s. */
  requestTimeoutMs?: number;
  /** An idle kept-alive connection is closed after this. Default 5 s. */
  keepAliveTimeoutMs?: number;
  /** No request log. Default true (the CLI turns the log on). */
  quiet?: boolean;
  /** Where the request log's JSON lines go. Default stdout. */
  logStream?: { write(line: string): void };
  /** Check every API response against the document; a violation becomes a 500. Default true. */
  checkResponses?: boolean;
  /** The clock, for tests. Default `Date.now`. */
  now?: () => number;
  /** A parsed OpenAPI document instead of the repository's. */
  document?: OpenApiDocument;
  /**
   * Origins whose pages may call the API from a browser, e.g. `['http://127.0.0.1:5173']`.
   * Default none: the sandbox sends no CORS headers and answers no preflight.
   */
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
  /**
   * The operations answered with the document's example (after the auth and request checks):
   * those on resources the sandbox does not store. Start-up logs them in one line.
   */
  fromExamples: readonly Operation[];
  /** Ends open streams and stops listening. */
  close(): Promise<void>;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

/**
 * Starts the sandbox on a loopback address and resolves once it accepts connections.
 *
 * @example
 * const sandbox = await startSandbox({ port: 0, flowTtlMs: 200 });
 * await fetch(`${sandbox.url}/profiles/checkout-agent`, { method: 'PATCH', ... });
 * await sandbox.close();
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) throw new Error(`the sandbox listens on loopback only, not on ${host}`);
  const port = options.port ?? defaultPort();
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${port}`);
  // Read once: the fixture's telemetry defaults and the app are checked against the same document.
  const document = options.document ?? loadSandboxDocument();
  const fixture =
    typeof options.fixture === 'string'
      ? await loadFixtureFile(options.fixture, document)
      : checkFixture(options.fixture ?? DEFAULT_FIXTURE, document);

  const limits = connectionLimits(options);

  let url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const { app, state, fromExamples } = await buildSandboxApp({
    fixture,
    document,
    flowTtlMs: positive(options.flowTtlMs, 10 * 60_000, 'flowTtlMs'),
    keepAliveMs: positive(options.keepAliveMs, 15_000, 'keepAliveMs'),
    retryMs: positive(options.retryMs, 1000, 'retryMs'),
    bodyLimit: positive(options.bodyLimit, 64 * 1024, 'bodyLimit'),
    logRequests: options.quiet === false,
    logStream: options.logStream,
    checkResponses: options.checkResponses !== false,
    limits,
    corsOrigins: checkCorsOrigins(options.corsOrigins ?? []),
    now: options.now ?? Date.now,
    publicUrl: () => url,
  });

  if (fromExamples.length > 0) {
    const names = fromExamples.map((o) => `${o.operationId} (${o.method.toUpperCase()} ${o.path})`);
    app.log.info(`served from the document's examples, with no state behind them: ${names.join(', ')}`);
  }
  await app.listen({ host, port });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    host,
    port: actualPort,
    fixture: summarizeFixture(fixture),
    app,
    state,
    fromExamples,
    close: () => (closing ??= app.close()),
  };
}

function defaultPort(): number {
  const fromEnv = process.env['PORT'];
  return fromEnv === undefined || fromEnv === '' ? 4020 : Number(fromEnv);
}

function connectionLimits(options: StartSandboxOptions): ConnectionLimits {
  const limits = Object.fromEntries(
    Object.entries(DEFAULT_CONNECTION_LIMITS).map(([name, fallback]) => [
      name,
      positive(options[name as keyof ConnectionLimits], fallback, name),
    ]),
  ) as unknown as ConnectionLimits;
  // Node refuses a header timeout longer than the request's: the headers are part of the request.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error(
      `headersTimeoutMs (${limits.headersTimeoutMs}) must not exceed requestTimeoutMs (${limits.requestTimeoutMs})`,
    );
  }
  return limits;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${value}`);
  return value;
}
