import { BrowserCloudError } from './errors.js';
import type { RequestOptions } from './request.js';

/**
 * How an operation's method is reached and called, as the generators of the MCP server and the
 * CLI write it from the operations model: `client[resource…][verb]`, with the path parameters'
 * values in path order, then the body if the operation takes one, then the query object if it
 * has query parameters, then the options. Every method of the client follows this convention.
 */
export interface OperationCall {
  readonly sdk: { readonly resource: readonly string[]; readonly verb: string };
  /** The path parameters' names, in path order. */
  readonly path: readonly string[];
  /** `optional`: without a body argument none is sent, so the server's defaults apply. */
  readonly body: 'none' | 'optional' | 'required';
  readonly query: boolean;
}

/** An operation's arguments by where they go. */
export interface OperationArguments {
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * Calls the method `call` names on `client`, with `args` in the convention's order: how the MCP
 * server and the CLI reach any operation from generated data. The method checks the arguments
 * against the document, as it does for every caller; a value missing here is its ValidationError.
 * @throws BrowserCloudError when the client has no such method (data generated from a newer document).
 */
export function callOperation(
  client: object,
  call: OperationCall,
  args: OperationArguments,
  options: RequestOptions & Record<string, unknown>,
): unknown {
  let target: unknown = client;
  for (const name of call.sdk.resource) target = (target as Record<string, unknown> | undefined)?.[name];
  const method = (target as Record<string, unknown> | undefined)?.[call.sdk.verb];
  if (typeof method !== 'function') {
    const name = [...call.sdk.resource, call.sdk.verb].join('.');
    throw new BrowserCloudError(`This client has no method ${name}: it is older than the document of this call`);
  }
  const body = call.body === 'optional' && Object.keys(args.body).length === 0 ? undefined : args.body;
  return method.call(
    target,
    ...call.path.map((name) => args.path[name]),
    ...(call.body === 'none' ? [] : [body]),
    ...(call.query ? [args.query] : []),
    options,
  );
}
