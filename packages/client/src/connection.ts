import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, nonNegative, resolveConnection } from './config.js';
import { BrowserCloudError } from './errors.js';
import type { RequestContext } from './request.js';
import { type FetchLike, transport } from './transport.js';

/** Options of {@link createClient} and {@link createConnection}. */
export interface ClientOptions {
  /**
   * Base address of the service, with scheme (http or https). Default: the
   * `BROWSER_CLOUD_BASE_URL` environment variable; there is no production default, so one of
   * them is required. An origin with an optional path prefix: a query, a fragment, whitespace or
   * credentials in it are refused (ValidationError). A trailing slash is removed.
   */
  baseUrl?: string | undefined;
  /** Bearer token. Default: the `BROWSER_CLOUD_API_KEY` environment variable; one is required. */
  token?: string | undefined;
  /** A fetch to use instead of `globalThis.fetch`; it receives a `Request`. */
  fetch?: FetchLike | undefined;
  /** Time allowed for each attempt, up to the response headers and the JSON body; the log stream's idle timeout. Default 60 000. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
}

/**
 * Where and how to send, without any operation: what the standalone operation functions
 * (`loginAuthConnection`, `renameProfile`, `streamBrowserLogs`) take, so that an app bundles only
 * the operations it imports. A client made by `createClient` is one too.
 */
export interface Connection {
  readonly baseUrl: string;
  /** Base URL and policy; never the token. */
  toJSON(): { baseUrl: string; timeoutMs: number; maxRetries: number };
}

/**
 * Each connection's request context (for the operation functions and `createRawClient`), kept
 * outside the connection: a property (even a hidden or symbol-keyed one) would lead from the
 * client to the transport, and so to the token; a WeakMap entry leads nowhere and goes with
 * the client.
 */
const contexts = new WeakMap<object, RequestContext>();

/** The request context and description of `options`; throws on a missing token or base URL. */
export function resolveContext(options: ClientOptions): {
  context: RequestContext;
  describe: Connection['toJSON'];
} {
  const { baseUrl, token } = resolveConnection(options);
  const timeoutMs = nonNegative('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const maxRetries = nonNegative('maxRetries', options.maxRetries, DEFAULT_MAX_RETRIES, true);
  const fetch = options.fetch;
  // The token lives only in the transport's closure: never a property of the client, a stream,
  // an error or a cause. The global fetch is looked up per call, so one installed after the
  // client was made is used.
  const sender = transport(fetch, token);
  const context: RequestContext = {
    baseUrl,
    fetch,
    transport: sender,
    timeoutMs,
    maxRetries,
    headers: options.headers,
  };
  return { context, describe: () => ({ baseUrl, timeoutMs, maxRetries }) };
}

/** Makes `connection` usable by the operation functions and `createRawClient`. */
export function bindConnection(connection: Connection, context: RequestContext): void {
  contexts.set(connection, context);
  // What Node's console.log/util.inspect shows.
  Object.defineProperty(connection, Symbol.for('nodejs.util.inspect.custom'), {
    value: () => ({ BrowserCloudClient: connection.toJSON() }),
  });
}

/** The request context of a connection made here, else undefined. */
export function findContext(connection: object): RequestContext | undefined {
  return contexts.get(connection);
}

/** The request context of a connection made here. @throws BrowserCloudError for anything else. */
export function contextOf(connection: Connection, operation: string): RequestContext {
  const context = contexts.get(connection);
  if (!context) {
    throw new BrowserCloudError(`${operation}() takes a connection made by createConnection() or createClient().`);
  }
  return context;
}

/**
 * Creates a connection for the standalone operation functions: the options and checks of
 * `createClient`, without its three resources, so that an app that imports one operation
 * bundles only that one.
 *
 * @example
 * const connection = createConnection({ baseUrl: 'https://api.example.com', token: process.env.TOKEN });
 * const profile = await renameProfile(connection, 'prof_123', { name: 'checkout-agent-eu' });
 */
export function createConnection(options: ClientOptions = {}): Connection {
  const { context, describe } = resolveContext(options);
  const connection: Connection = { baseUrl: context.baseUrl, toJSON: describe };
  bindConnection(connection, context);
  return connection;
}
