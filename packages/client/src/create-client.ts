import { type ClientOptions, type Connection, createConnection } from './connection.js';
import type { Resources } from './generated/client.js';
import { resources } from './generated/resources.js';

export type { ClientOptions } from './connection.js';

/**
 * The client: every operation of the document by resource (`client.profiles.rename`). For the
 * `{ data, error }` style, pass it to `createRawClient` of `@browser-cloud/client/raw`. It is a
 * {@link Connection} too, so the standalone operation functions take it.
 */
export interface BrowserCloudClient extends Connection, Resources {}

/**
 * Creates a client. Throws a BrowserCloudError when no token or base URL is given or found in
 * the environment, and a ValidationError (`field` `baseUrl`) for a base URL that is not an
 * origin with an optional path prefix. It bundles every operation; see `createConnection` for fewer.
 *
 * @example
 * const client = createClient({ baseUrl: 'https://api.example.com', token: process.env.TOKEN });
 * const profile = await client.profiles.rename('prof_123', { name: 'checkout-agent-eu' });
 */
export function createClient(options: ClientOptions = {}): BrowserCloudClient {
  const connection = createConnection(options);
  return Object.assign(connection, resources(connection));
}
