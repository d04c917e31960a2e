import type { Validator } from '@browser-cloud/api-types';
import { execute, operationUrl, type RequestContext, type RequestOptions } from './request.js';
import { check, pathSegment } from './validation.js';

/**
 * One operation of the document as the generated code states it (`src/generated/operations.ts`):
 * what the request core needs to check a call's arguments, send it, decide whether it may be
 * sent again and read its answer. `T` is what a call resolves to.
 */
export interface OperationDescriptor<T> {
  /** Upper case, as sent. */
  readonly method: string;
  /** The path template: `/profiles/{id_or_name}`. */
  readonly path: string;
  /** The path parameters in path order, each with what it addresses (`profile`), for messages. */
  readonly params: readonly (readonly [name: string, resource: string])[];
  /** The generated validator of the path parameters as one object (`validate<OperationId>Path`). */
  readonly validatePath: Validator<unknown>;
  readonly validateBody?: Validator<unknown>;
  /** Whether the body must be given; an optional one is checked only when it is. */
  readonly bodyRequired?: boolean;
  /** The query as one object, its rules over several parameters included. */
  readonly validateQuery?: Validator<unknown>;
  /** `x-repeatable`, else HTTP's idempotency of the method. */
  readonly repeatable: boolean;
  /** `x-repeatable-when-matches`: a call is repeatable only when each of these values matches its pattern. */
  readonly repeatableWhen?: Readonly<Record<string, RegExp>>;
  /** The tolerant reader of the 2xx body and its schema's name; absent for an answer without a body. */
  readonly answer?: { readonly validate: Validator<T>; readonly name: string };
  /**
   * A DELETE answered without a body: when a retry meets 404 after an attempt that may have
   * applied (a timeout, a connection lost after sending, a 5xx), the call resolves, since what
   * it deletes is gone.
   */
  readonly deletes?: boolean;
}

/**
 * Checks a call's arguments against the document, before anything is sent (ValidationError),
 * and returns its path and query as sent, and whether it may be sent again once it may have
 * reached the server.
 */
export function prepare(
  operation: Omit<OperationDescriptor<unknown>, 'answer'>,
  pathValues: readonly string[],
  body: unknown,
  query: object | undefined,
): { path: string; repeatable: boolean } {
  const values: Record<string, unknown> = {};
  let path = operation.path;
  operation.params.forEach(([name, resource], i) => {
    values[name] = pathValues[i];
    path = path.replace(`{${name}}`, () => pathSegment(name, pathValues[i]!, resource));
  });
  check(operation.validatePath, values, 'path');
  if (body !== undefined || operation.bodyRequired) check(operation.validateBody!, body, 'body');
  if (operation.validateQuery) check(operation.validateQuery, query ?? {}, 'query');
  Object.assign(values, query);
  return {
    path: operationUrl('', path, query),
    repeatable:
      operation.repeatable &&
      Object.entries(operation.repeatableWhen ?? {}).every(([name, pattern]) => pattern.test(String(values[name]))),
  };
}

/** A call of `operation` through the request core: checked, sent, retried as the document allows, its answer read. */
export async function call<T>(
  context: RequestContext,
  operation: OperationDescriptor<T>,
  pathValues: readonly string[],
  body: unknown,
  query: object | undefined,
  options: RequestOptions | undefined,
): Promise<T> {
  const { path, repeatable } = prepare(operation, pathValues, body, query);
  // Spelled out: spreading the descriptor costs more than the rest of the call's checks.
  const { method, answer, deletes } = operation;
  return execute(context, { method, path, body, repeatable, answer, deletes }, options);
}
