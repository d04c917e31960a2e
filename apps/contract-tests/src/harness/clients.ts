import { callOperation, createClient } from '@browser-cloud/client';
import { type Operation, operationSignature, readSimpleValue } from '@browser-cloud/openapi-document';
import type { RequestCase } from '../engine/request-case.js';
import { observedFetch } from './observed-fetch.js';
import { document, target } from './target.js';

/** The client as an agent developer builds it, over the observing fetch; no retries, so each case sees one response. */
export const clientWithToken = (token: string) =>
  createClient({ baseUrl: target.baseUrl, token, fetch: observedFetch, maxRetries: 0 });
export const client = clientWithToken(target.token);

/** Calls the client's method of `operation` with a case's values, as the CLI does; reads a stream to its end. */
export async function callClient(operation: Operation, c: RequestCase, options: { headers: Record<string, string> }) {
  const { call } = operationSignature(document, operation);
  // A case holds path values as the URL's text; the client takes them typed (an integer id as a number).
  const path = Object.fromEntries(
    operation.parameters
      .filter((p) => p.in === 'path' && c.pathParams[p.name] !== undefined)
      .map((p) => [p.name, readSimpleValue(document, p, encodeURIComponent(c.pathParams[p.name]!), true)]),
  );
  const args = { path, query: c.query, body: c.body === undefined ? {} : JSON.parse(c.body) };
  const result: unknown = await callOperation(client, call, args, options);
  if (!(Symbol.asyncIterator in Object(result))) return result;
  const items: unknown[] = [];
  for await (const item of result as AsyncIterable<unknown>) items.push(item);
  return items;
}
