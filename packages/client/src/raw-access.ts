import type { Transport } from './transport.js';

/** What `createRawClient` needs of a client: where it sends, how, and its `headers` option. */
export interface RawAccess {
  readonly baseUrl: string;
  readonly send: Transport['send'];
  readonly headers: Record<string, string> | undefined;
}

/**
 * Each client's sending, for `@browser-cloud/client/raw`, kept outside the client: a property
 * (even a hidden or symbol-keyed one) would lead from the client to the transport, and a
 * WeakMap entry leads nowhere and goes with the client.
 */
const clients = new WeakMap<object, RawAccess>();

export function registerTransport(client: object, access: RawAccess): void {
  clients.set(client, access);
}

export function rawAccess(client: object): RawAccess | undefined {
  return clients.get(client);
}
