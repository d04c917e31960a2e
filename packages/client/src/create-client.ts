import { bindConnection, type ClientOptions, type Connection, resolveContext } from './connection.js';
import { type AuthConnections, authConnections } from './resources/auth-connections.js';
import { type BrowserLogs, browserLogs } from './resources/browser-logs.js';
import { type Profiles, profiles } from './resources/profiles.js';

export type { ClientOptions } from './connection.js';

/**
 * The client: the three operations by resource. For the `{ data, error }` style, pass it to
 * `createRawClient` of `@browser-cloud/client/raw`. It is a {@link Connection} too, so the
 * standalone operation functions take it.
 */
export interface BrowserCloudClient extends Connection {
  readonly auth: { readonly connections: AuthConnections };
  readonly profiles: Profiles;
  readonly browsers: { readonly logs: BrowserLogs };
}

/**
 * Creates a client. Throws a BrowserCloudError when no token or base URL is given or found in
 * the environment, and a ValidationError (`field` `baseUrl`) for a base URL that is not an
 * http(s) URL or holds a query, a fragment, whitespace or credentials. It bundles all three operations;
 * for an app that uses fewer, see `createConnection` and the standalone operation functions.
 *
 * @example
 * const client = createClient({ baseUrl: 'https://api.example.com', token: process.env.TOKEN });
 * const profile = await client.profiles.rename('prof_123', { name: 'checkout-agent-eu' });
 */
export function createClient(options: ClientOptions = {}): BrowserCloudClient {
  const { context, describe } = resolveContext(options);
  const client: BrowserCloudClient = {
    auth: { connections: authConnections(context) },
    profiles: profiles(context),
    browsers: { logs: browserLogs(context) },
    baseUrl: context.baseUrl,
    toJSON: describe,
  };
  bindConnection(client, context);
  return client;
}
