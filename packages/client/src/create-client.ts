import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, nonNegative, resolveConnection } from './config.js';
import { registerTransport } from './raw-access.js';
import type { RequestContext } from './request.js';
import { type FetchLike, transport } from './transport.js';
import { type AuthConnections, authConnections } from './resources/auth-connections.js';
import { type BrowserLogs, browserLogs } from './resources/browser-logs.js';
import { type Profiles, profiles } from './resources/profiles.js';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /**
   * Base address of the service, with scheme (http or https). Default: the
   * `BROWSER_CLOUD_BASE_URL` environment variable; there is no production default, so one of
   * them is required. A trailing slash is removed.
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
 * The client: the three operations by resource. For the `{ data, error }` style, pass it to
 * `createRawClient` of `@browser-cloud/client/raw`.
 */
export interface BrowserCloudClient {
  readonly auth: { readonly connections: AuthConnections };
  readonly profiles: Profiles;
  readonly browsers: { readonly logs: BrowserLogs };
  readonly baseUrl: string;
  /** Base URL and policy; never the token. */
  toJSON(): { baseUrl: string; timeoutMs: number; maxRetries: number };
}

/**
 * Creates a client. Throws a BrowserCloudError when no token or base URL is given or found in
 * the environment, or when the base URL is not an http(s) URL.
 *
 * @example
 * const client = createClient({ baseUrl: 'https://api.example.com', token: process.env.TOKEN });
 * const profile = await client.profiles.rename('prof_123', { name: 'checkout-agent-eu' });
 */
export function createClient(options: ClientOptions = {}): BrowserCloudClient {
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
  const describe = () => ({ baseUrl, timeoutMs, maxRetries });
  const client: BrowserCloudClient = {
    auth: { connections: authConnections(context) },
    profiles: profiles(context),
    browsers: { logs: browserLogs(context) },
    baseUrl,
    toJSON: describe,
  };
  registerTransport(client, { baseUrl, send: sender.send, headers: options.headers });
  // What Node's console.log/util.inspect shows.
  Object.defineProperty(client, Symbol.for('nodejs.util.inspect.custom'), {
    value: () => ({ BrowserCloudClient: describe() }),
  });
  return client;
}
