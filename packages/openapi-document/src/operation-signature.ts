import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import type { Operation, SdkName } from './operations.js';
import { inlineRefs } from './resolve-ref.js';

/** One input of an operation as a named argument: a path or query parameter, or a property of the request body. */
export interface OperationArgument {
  readonly name: string;
  readonly in: 'path' | 'query' | 'body';
  readonly required: boolean;
  /** The schema with every `$ref` inlined; a parameter's description when the schema has none. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/**
 * How a client method of the operation is reached and called (the calling convention of every
 * method): `client[resource…][verb]`, with the path parameters' values in path order, then the
 * body if the operation takes one, then the query object if it has query parameters, then the
 * options (`{ signal }`…).
 */
export interface OperationCall {
  readonly sdk: SdkName;
  /** The path parameters' names, in path order. */
  readonly path: readonly string[];
  /** `optional`: no argument given for the body sends none, so the server's defaults apply. */
  readonly body: 'none' | 'optional' | 'required';
  readonly query: boolean;
}

/**
 * The operation's inputs as one flat set of named arguments, as a tool or a command takes them
 * (path parameters in path order, query parameters, then the request body's properties, required
 * when the body is), and how its client method is called with them.
 * @throws OpenApiDocumentError when two inputs share a name, a parameter has no schema, or the
 *   request body is not an object of properties: an argument could not say where it goes.
 */
export function operationSignature(
  document: OpenApiDocument,
  operation: Operation,
): { arguments: OperationArgument[]; call: OperationCall } {
  const found = new Map<string, OperationArgument>();
  const add = (argument: OperationArgument) => {
    const other = found.get(argument.name);
    if (other) {
      throw new OpenApiDocumentError(
        `${operation.pointer}: "${argument.name}" is both a ${other.in} and a ${argument.in} input, so no argument can take it`,
      );
    }
    found.set(argument.name, argument);
  };
  const position = (name: string) => operation.path.indexOf(`{${name}}`);
  const parameters = operation.parameters
    .filter((p) => p.in === 'path' || p.in === 'query')
    .sort((a, b) =>
      a.in === b.in ? (a.in === 'path' ? position(a.name) - position(b.name) : 0) : a.in === 'path' ? -1 : 1,
    );
  for (const parameter of parameters) {
    if (parameter.schema === undefined)
      throw new OpenApiDocumentError(`${parameter.pointer}: the parameter has no schema`);
    const schema = inlineRefs(document, parameter.schema.schema) as Record<string, unknown>;
    const description = schema['description'] ?? parameter.parameter.description;
    add({
      name: parameter.name,
      in: parameter.in as 'path' | 'query',
      required: parameter.required,
      schema: description === undefined ? schema : { ...schema, description },
    });
  }
  const body = operation.body;
  if (body !== undefined) {
    const schema = inlineRefs(document, body.schema?.schema) as Record<string, unknown> | undefined;
    const properties = schema?.['properties'] as Record<string, Record<string, unknown>> | undefined;
    if (schema?.['type'] !== 'object' || properties === undefined) {
      throw new OpenApiDocumentError(`${operation.pointer}: the request body is not an object with properties`);
    }
    const required = new Set(body.required ? ((schema['required'] as string[] | undefined) ?? []) : []);
    for (const [name, property] of Object.entries(properties)) {
      add({ name, in: 'body', required: required.has(name), schema: property });
    }
  }
  return {
    arguments: [...found.values()],
    call: {
      sdk: operation.sdk,
      path: parameters.filter((p) => p.in === 'path').map((p) => p.name),
      body: body === undefined ? 'none' : body.required ? 'required' : 'optional',
      query: operation.query !== undefined,
    },
  };
}
