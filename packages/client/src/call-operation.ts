import { BrowserCloudError, ValidationError } from './errors.js';
import type { RequestOptions } from './request.js';

/**
 * How an operation's method is reached and called (`operationSignature` of the operations model,
 * as the MCP server's and the CLI's generators write it): `client[sdk.resource…][sdk.verb]` with
 * the path values in path order, the body (`optional`: none for an empty one), the query when one of
 * its parameters is required (`positional`), the options, which carry a query of optional
 * parameters only (`options`) and the header parameters (`header: 'options'`).
 */
export interface OperationCall {
  readonly sdk: { readonly resource: readonly string[]; readonly verb: string };
  readonly path: readonly string[];
  readonly body: 'none' | 'optional' | 'required';
  readonly query: 'none' | 'positional' | 'options';
  /** Absent in data generated before header parameters were taken: none. */
  readonly header?: 'none' | 'options';
}

type Values = Readonly<Record<string, unknown>>;

/**
 * Calls the method `call` names on `client` with `args` sorted by where they go, which it checks
 * against the document as for every caller (a value missing here is its ValidationError).
 * @throws BrowserCloudError when the client has no such method (data generated from a newer document).
 */
export function callOperation(
  client: object,
  call: OperationCall,
  args: { readonly path: Values; readonly query: Values; readonly body: Values; readonly header?: Values },
  options: RequestOptions & Record<string, unknown>,
): unknown {
  const target = call.sdk.resource.reduce<unknown>((node, name) => (node as Values | undefined)?.[name], client);
  const method = (target as Values | undefined)?.[call.sdk.verb];
  if (typeof method !== 'function') {
    const name = [...call.sdk.resource, call.sdk.verb].join('.');
    throw new BrowserCloudError(`This client has no method ${name}: it is older than the document of this call`);
  }
  // What is read of `args` here (the path values, whether the body and the query are empty) is
  // read once; a getter or a Proxy that throws is bad input, as it is for the method.
  const read = <T>(part: string, value: () => T): T => {
    try {
      return value();
    } catch {
      const message = `${part}: is not JSON (a getter, Proxy or toJSON threw)`;
      throw new ValidationError([{ field: part, rule: 'json', message }]);
    }
  };
  const path = call.path.map((name) => read(`path.${name}`, () => args.path[name]));
  // An operation without a body or a query reads none: what a caller passes there is not looked at.
  const emptyBody = call.body === 'none' || read('body', () => Object.keys(args.body ?? {}).length === 0);
  const emptyQuery = read('query', () => Object.keys(args.query ?? {}).length === 0);
  const emptyHeader = read('header', () => Object.keys(args.header ?? {}).length === 0);
  const body = call.body === 'optional' && emptyBody ? undefined : args.body;
  const extra = {
    ...(call.query === 'options' && !emptyQuery ? { query: args.query } : {}),
    ...(call.header === 'options' && !emptyHeader ? { header: args.header } : {}),
  };
  return method.call(
    target,
    ...path,
    ...(call.body === 'none' ? [] : [body]),
    ...(call.query === 'positional' ? [args.query] : []),
    Object.keys(extra).length > 0 ? { ...options, ...extra } : options,
  );
}
