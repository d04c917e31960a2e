// A subpath of its own, so that an app using only the client's operations bundles no openapi-fetch.
import type { paths } from '@browser-cloud/api-types';
import createFetchClient, { type Client, defaultPathSerializer } from 'openapi-fetch';
import { type Connection, contextOf } from './connection.js';
import { PATH_RESOURCES } from './generated/resources.js';
import { pathSegment } from './parameters.js';
import { wellFormed } from './validation.js';

export type RawClient = Client<paths>;

/**
 * The openapi-fetch client typed by the document, for the `{ data, error }` style, with the
 * client's base URL and `headers`, sending through its transport, which sets the bearer token
 * last (after any middleware). No retries, timeouts or input checks. Throws a BrowserCloudError
 * for anything but a client or a connection made here.
 *
 * @example
 * const raw = createRawClient(client);
 * const { data, error } = await raw.PATCH('/profiles/{id_or_name}', { params: { path: { id_or_name: 'prof_1' } }, body: { name: 'n' } });
 */
export function createRawClient(client: Connection): RawClient {
  const access = contextOf(client, 'createRawClient');
  return createFetchClient<paths>({
    baseUrl: access.baseUrl,
    fetch: (request: Request) => access.transport.send(request),
    // Before the URL is built: once built, a `.` or `..` segment is gone from it.
    pathSerializer: (pathname, params) => {
      for (const [name, value] of Object.entries(params ?? {})) {
        if (typeof value !== 'string') continue;
        wellFormed(value, `path.${name}`);
        pathSegment(name, value, PATH_RESOURCES[pathname.slice(access.baseUrl.length)]?.[name] ?? 'resource');
      }
      return defaultPathSerializer(pathname, params);
    },
    ...(access.headers ? { headers: access.headers } : {}),
  });
}
