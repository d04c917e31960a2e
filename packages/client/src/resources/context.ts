import type { paths } from '@browser-cloud/api-types';
import type { Client } from 'openapi-fetch';
import type { RequestContext } from '../request.js';

/** What each resource gets from its client: the openapi-fetch client and the request policy. */
export interface ResourceContext extends RequestContext {
  readonly raw: Client<paths>;
  readonly baseUrl: string;
  /** The client's `headers` option, which openapi-fetch adds to the other operations' requests. */
  readonly headers: Record<string, string> | undefined;
}
