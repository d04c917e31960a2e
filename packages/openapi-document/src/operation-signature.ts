import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import type { Operation, OperationParameter } from './operations.js';
import { objectShape } from './object-shape.js';
import { inlineRefs } from './resolve-ref.js';
import { schemaTypes } from './schema-types.js';

/** One input of an operation as a named argument: a path, query or header parameter, or a property of the request body. */
export interface OperationArgument {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'body';
  readonly required: boolean;
  /** The schema with every `$ref` inlined; a parameter's description when the schema has none. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/**
 * The operation's inputs as one flat set of named arguments, as a tool or a command takes them
 * (path parameters in path order, query parameters, then the body's properties, required when the
 * body is), and how its client method is called (the calling convention): `client[sdk.resource…][sdk.verb]`
 * with the path values in path order, the body if the operation takes one (`optional`: none is
 * sent without an argument, so the server's defaults apply), the query object if one of its
 * parameters is required (`positional`), then the options (`{ signal }`…), which carry a query of
 * optional parameters only (`options`): adding one to an operation changes no call's arguments.
 * @throws OpenApiDocumentError when two inputs share a name (an argument could not say where it
 *   goes), a parameter has no schema, or the request body is not an object of properties.
 */
export function operationSignature(document: OpenApiDocument, operation: Operation) {
  const position = (p: OperationParameter) =>
    p.in === 'path' ? operation.path.indexOf(`{${p.name}}`) : Number.MAX_SAFE_INTEGER;
  const parameters = operation.parameters
    .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
    .sort((a, b) => position(a) - position(b));
  const args: OperationArgument[] = parameters.map((parameter) => {
    if (!parameter.schema) throw new OpenApiDocumentError(`${parameter.pointer}: the parameter has no schema`);
    const schema = inlineRefs(document, parameter.schema.schema) as Record<string, unknown>;
    const description = schema['description'] ?? parameter.parameter.description;
    return {
      name: parameter.name,
      in: parameter.in as 'path' | 'query' | 'header',
      required: parameter.required,
      schema: description === undefined ? schema : { ...schema, description },
    };
  });
  const { body } = operation;
  if (body) {
    const schema = inlineRefs(document, body.schema?.schema) as Record<string, unknown> | undefined;
    // Its properties and theirs of its allOf members (`allOf: [{ $ref: Base }, { properties: … }]`).
    const shape = objectShape(document, schema, body.schema?.pointer ?? operation.pointer);
    const types = schemaTypes(schema);
    if (types.length !== 1 || types[0] !== 'object' || Object.keys(shape.properties).length === 0) {
      throw new OpenApiDocumentError(`${operation.pointer}: the request body is not an object with properties`);
    }
    const required = body.required ? shape.required : [];
    for (const [name, property] of Object.entries(shape.properties)) {
      args.push({ name, in: 'body', required: required.includes(name), schema: property.schema });
    }
  }
  const twice = args.find((a, i) => args.findIndex((b) => b.name === a.name) !== i);
  if (twice) throw new OpenApiDocumentError(`${operation.pointer}: two inputs are named "${twice.name}"`);
  const call = {
    sdk: operation.sdk,
    path: parameters.filter((p) => p.in === 'path').map((p) => p.name),
    body: body ? (body.required ? 'required' : 'optional') : 'none',
    query: !operation.query ? 'none' : operation.query.parameters.some((p) => p.required) ? 'positional' : 'options',
    ...(parameters.some((p) => p.in === 'header') ? { header: 'options' as const } : {}),
  } as const;
  return { arguments: args, call };
}
