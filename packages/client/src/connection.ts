import { resolveOptions } from './config.js';
import type { Resources } from './generated/client.js';
import { resources } from './generated/resources.js';
import { BrowserCloudError } from './errors.js';
import type { RequestContext } from './request.js';
import { type FetchLike, transport } from './transport.js';

/** Options of {@link createClient} and {@link createConnection}. */
export interface ClientOptions {
  /** An http(s) origin with an optional path prefix. Default: the `BROWSER_CLOUD_BASE_URL` environment variable; one is required. */
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

/** Where and how to send, without any operation: what the standalone operation functions take (a client is one too). */
export interface Connection {
  readonly baseUrl: string;
  /** Base URL and policy; never the token. */
  toJSON(): { baseUrl: string; timeoutMs: number; maxRetries: number };
}

/** Each connection's request context, kept outside it: a property (even a hidden one) would lead to the token. */
const contexts = new WeakMap<object, RequestContext>();

/**
 * Creates a connection for the standalone operation functions: `createClient` without its
 * resources, so that an app bundles only the operations it imports.
 * @example
 * const connection = createConnection({ baseUrl: 'https://api.example.com', token: process.env.TOKEN });
 * const profile = await renameProfile(connection, 'prof_123', { name: 'checkout-agent-eu' });
 */
export function createConnection(options: ClientOptions = {}): Connection {
  const { baseUrl, token, timeoutMs, maxRetries } = resolveOptions(options);
  const connection: Connection = { baseUrl, toJSON: () => ({ baseUrl, timeoutMs, maxRetries }) };
  const { fetch, headers } = options;
  contexts.set(connection, { baseUrl, fetch, transport: transport(fetch, token), timeoutMs, maxRetries, headers });
  // What Node's console.log/util.inspect shows.
  Object.defineProperty(connection, Symbol.for('nodejs.util.inspect.custom'), {
    value: () => ({ BrowserCloudClient: connection.toJSON() }),
  });
  return connection;
}

/** The request context of a connection made here. @throws BrowserCloudError for anything else. */
export function contextOf(connection: Connection, caller: string): RequestContext {
  const context = contexts.get(connection);
  if (!context)
    throw new BrowserCloudError(`${caller}() takes a connection made by createConnection() or createClient().`);
  return context;
}

/**
 * The client: every operation of the document by resource (`client.profiles.rename`); a
 * {@link Connection} too, for the standalone functions and `createRawClient` (`/raw`).
 */
export interface BrowserCloudClient extends Connection, Resources {}

/**
 * Creates a client with every operation. Throws a BrowserCloudError when no token or base URL is
 * found, a ValidationError (`field` `baseUrl`) for a base URL that is not an origin with a path prefix.
 * @example
 * const client = createClient({ baseUrl: 'https://api.example.com', token: process.env.TOKEN });
 * const profile = await client.profiles.rename('prof_123', { name: 'checkout-agent-eu' });
 */
export function createClient(options: ClientOptions = {}): BrowserCloudClient {
  const connection = createConnection(options);
  return Object.assign(connection, resources(connection));
}
