import { createClient } from '@browser-cloud/client';
import type { Operation } from '@browser-cloud/openapi-document';
import type { RequestCase } from '../engine/request-case.js';
import { observedFetch } from './observed-fetch.js';
import { target } from './target.js';

/** The client as an agent developer builds it, over the observing fetch; no retries, so each case sees one response. */
export const clientWithToken = (token: string) =>
  createClient({ baseUrl: target.baseUrl, token, fetch: observedFetch, maxRetries: 0 });
export const client = clientWithToken(target.token);

/**
 * Calls the client's method of `operation` (`client.profiles.rename` for its SDK name) as an
 * agent would: the path parameters in the template's order, then the body (else the query), then
 * the request options. A stream is read to its end.
 */
export async function callClient(operation: Operation, c: RequestCase, options: object): Promise<unknown> {
  type Node = Record<string, unknown> | undefined;
  const { resource, verb } = operation.sdk;
  const owner = resource.reduce<Node>((node, key) => node?.[key] as Node, client as unknown as Node);
  const method = owner?.[verb];
  if (typeof method !== 'function') {
    throw new Error(`the client has no client.${[...resource, verb].join('.')} for ${operation.operationId}`);
  }
  const path = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => c.pathParams[m[1]!]);
  const body = c.body === undefined ? undefined : JSON.parse(c.body);
  const input = operation.body ? [body] : operation.query ? [c.query] : [];
  const result: unknown = await method.apply(owner, [...path, ...input, options]);
  if (!(Symbol.asyncIterator in Object(result))) return result;
  const items: unknown[] = [];
  for await (const item of result as AsyncIterable<unknown>) items.push(item);
  return items;
}
