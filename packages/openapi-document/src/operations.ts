import { OpenApiDocumentError } from './document-error.js';
import type {
  HeaderObject,
  JsonSchema,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
} from './document-types.js';
import { appendPointer, formatPointer } from './json-pointer.js';
import { resolveNode } from './resolve-ref.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * A schema and where it is written. `schema` has its own `$ref` followed (not those inside it);
 * `pointer` is the place of the schema as the operation names it, so that a validator compiled
 * from `ajvRef(pointer)` checks the document's schema itself. Use `inlineRefs` for a
 * self-contained copy.
 */
export interface SchemaAt {
  readonly schema: JsonSchema;
  readonly pointer: string;
}

export interface OperationParameter {
  readonly name: string;
  readonly in: ParameterObject['in'];
  /** Path parameters are always required (OpenAPI says so even when `required` is omitted). */
  readonly required: boolean;
  /** Where the Parameter Object lives, a `$ref` followed. */
  readonly pointer: string;
  readonly parameter: ParameterObject;
  /** `undefined` for a parameter described by `content` instead of `schema`. */
  readonly schema: SchemaAt | undefined;
}

export interface OperationMedia {
  readonly mediaType: string;
  /** Where the Media Type Object lives. */
  readonly pointer: string;
  /** The Media Type Object, for its `example`/`examples`. */
  readonly media: MediaTypeObject;
  readonly schema: SchemaAt | undefined;
}

export interface OperationRequestBody {
  readonly required: boolean;
  readonly pointer: string;
  /** By media type. */
  readonly content: Readonly<Record<string, OperationMedia>>;
}

export interface OperationHeader {
  readonly name: string;
  readonly required: boolean;
  readonly pointer: string;
  readonly schema: SchemaAt | undefined;
}

export interface OperationResponse {
  /** As the document keys it: `200`, `4XX` or `default`. */
  readonly status: string;
  readonly pointer: string;
  readonly response: ResponseObject;
  /** By media type; empty for a response without a body. */
  readonly content: Readonly<Record<string, OperationMedia>>;
  readonly headers: Readonly<Record<string, OperationHeader>>;
}

/** One operation of the document with its references followed and every schema located. */
export interface Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path template: `/profiles/{id_or_name}`. */
  readonly path: string;
  readonly pointer: string;
  readonly operation: OperationObject;
  /** The path item's parameters merged with the operation's (the operation's win). */
  readonly parameters: readonly OperationParameter[];
  readonly requestBody: OperationRequestBody | undefined;
  /** By status as the document keys it. */
  readonly responses: Readonly<Record<string, OperationResponse>>;
}

/**
 * Every operation of the document, in document order.
 * @throws OpenApiDocumentError for an operation without `operationId` or with a `$ref` that does not
 *   resolve: every consumer (generator, sandbox routes, contract coverage) needs both.
 */
export function* operations(document: OpenApiDocument): Generator<Operation> {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (operation === undefined) continue;
      const pointer = formatPointer(['paths', path, method]);
      if (typeof operation?.operationId !== 'string' || operation.operationId === '') {
        throw new OpenApiDocumentError(`the operation at ${pointer} has no operationId`);
      }
      yield {
        operationId: operation.operationId,
        method,
        path,
        pointer,
        operation,
        parameters: parametersOf(document, path, item.parameters, operation.parameters, pointer),
        requestBody: requestBodyOf(document, operation, pointer),
        responses: responsesOf(document, operation, pointer),
      };
    }
  }
}

/** The operation with this `operationId`. @throws OpenApiDocumentError when there is none. */
export function findOperation(document: OpenApiDocument, operationId: string): Operation {
  for (const operation of operations(document)) if (operation.operationId === operationId) return operation;
  throw new OpenApiDocumentError(`the OpenAPI document has no operation "${operationId}"`);
}

/**
 * The response the document gives for an HTTP status: the exact code, else its range (`4XX`),
 * else `default`; `undefined` when none applies.
 */
export function findResponse(operation: Operation, status: number): OperationResponse | undefined {
  const code = String(status);
  return operation.responses[code] ?? operation.responses[`${code[0]}XX`] ?? operation.responses['default'];
}

function parametersOf(
  document: OpenApiDocument,
  path: string,
  shared: OperationObject['parameters'],
  own: OperationObject['parameters'],
  operationPointer: string,
): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  const add = (list: OperationObject['parameters'], base: string) => {
    (list ?? []).forEach((raw, i) => {
      const { node: parameter, pointer } = resolveNode(document, raw, appendPointer(base, 'parameters', i));
      if (typeof parameter?.name !== 'string' || typeof parameter.in !== 'string') {
        throw new OpenApiDocumentError(`the parameter at ${pointer} needs a name and an "in"`);
      }
      byKey.set(`${parameter.in} ${parameter.name}`, {
        name: parameter.name,
        in: parameter.in,
        required: parameter.in === 'path' || parameter.required === true,
        pointer,
        parameter,
        schema: schemaAt(document, parameter.schema, appendPointer(pointer, 'schema')),
      });
    });
  };
  add(shared, formatPointer(['paths', path]));
  add(own, operationPointer);
  return [...byKey.values()];
}

function requestBodyOf(
  document: OpenApiDocument,
  operation: OperationObject,
  operationPointer: string,
): OperationRequestBody | undefined {
  if (operation.requestBody === undefined) return undefined;
  const { node: body, pointer } = resolveNode<RequestBodyObject>(
    document,
    operation.requestBody,
    appendPointer(operationPointer, 'requestBody'),
  );
  return { required: body.required === true, pointer, content: contentOf(document, body.content, pointer) };
}

function responsesOf(
  document: OpenApiDocument,
  operation: OperationObject,
  operationPointer: string,
): Record<string, OperationResponse> {
  const responses: Record<string, OperationResponse> = {};
  for (const [status, raw] of Object.entries(operation.responses ?? {})) {
    const { node: response, pointer } = resolveNode<ResponseObject>(
      document,
      raw,
      appendPointer(operationPointer, 'responses', status),
    );
    const headers: Record<string, OperationHeader> = {};
    for (const [name, rawHeader] of Object.entries(response.headers ?? {})) {
      const header = resolveNode<HeaderObject>(document, rawHeader, appendPointer(pointer, 'headers', name));
      headers[name] = {
        name,
        required: header.node.required === true,
        pointer: header.pointer,
        schema: schemaAt(document, header.node.schema, appendPointer(header.pointer, 'schema')),
      };
    }
    responses[status] = { status, pointer, response, content: contentOf(document, response.content, pointer), headers };
  }
  return responses;
}

function contentOf(
  document: OpenApiDocument,
  content: Record<string, MediaTypeObject> | undefined,
  base: string,
): Record<string, OperationMedia> {
  const out: Record<string, OperationMedia> = {};
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    const pointer = appendPointer(base, 'content', mediaType);
    out[mediaType] = {
      mediaType,
      pointer,
      media,
      schema: schemaAt(document, media.schema, appendPointer(pointer, 'schema')),
    };
  }
  return out;
}

function schemaAt(document: OpenApiDocument, schema: JsonSchema | undefined, pointer: string): SchemaAt | undefined {
  if (schema === undefined) return undefined;
  return { schema: resolveNode(document, schema, pointer).node, pointer };
}
