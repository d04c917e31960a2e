// What the case generator needs of each operation, arranged from the document module's operation
// iterator: where its parameters and body schemas live (as `#` pointers, which Ajv and `$ref`
// resolution both take) and the one object schema that states the whole query, if there is one.
import { findOperation, type OpenApiDocument, type Operation, operations } from '@browser-cloud/openapi-document';

/** An object schema (boolean schemas do not occur where the engine generates). */
export type JsonSchema = Record<string, unknown>;

export interface ParameterModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** `#` pointer of the parameter's schema, for Ajv. */
  schemaPointer: string;
  /** The schema itself, with its top-level $ref followed. */
  schema: JsonSchema;
}

export interface OperationModel {
  operationId: string;
  /** Upper case, as sent. */
  method: string;
  /** The path template, e.g. `/profiles/{id_or_name}`. */
  path: string;
  parameters: ParameterModel[];
  /**
   * `#` pointer of one object schema that states the whole query, when the query parameters are
   * the properties of one (`LogStreamQuery`): its rules across parameters then apply to the query.
   */
  querySchemaPointer: string | undefined;
  body: { required: boolean; mediaType: string; schemaPointer: string } | undefined;
  /** The media types of the success answers, for the Accept header. */
  successMediaTypes: string[];
  /** True when the operation (or the document) requires a security scheme. */
  secured: boolean;
  /** The document module's view, for the responses and their headers. */
  source: Operation;
}

const fragment = (pointer: string) => (pointer.startsWith('#') ? pointer : `#${pointer}`);

/** The object schema whose `properties/<name>` every query parameter's schema refers to, if any. */
function queryObjectPointer(operation: Operation): string | undefined {
  const query = operation.parameters.filter((p) => p.in === 'query');
  if (query.length === 0) return undefined;
  const parents = new Set(
    query.map((p) => {
      const ref = (p.parameter.schema as { $ref?: unknown } | undefined)?.$ref;
      const suffix = `/properties/${p.name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return typeof ref === 'string' && ref.endsWith(suffix) ? ref.slice(0, -suffix.length) : undefined;
    }),
  );
  const [parent] = parents;
  return parents.size === 1 && parent ? parent : undefined;
}

function modelOf(document: OpenApiDocument, operation: Operation): OperationModel {
  const [mediaType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  const security = (operation.operation.security ?? document.security ?? []) as Record<string, unknown>[];
  return {
    operationId: operation.operationId,
    method: operation.method.toUpperCase(),
    path: operation.path,
    parameters: operation.parameters
      .filter((p) => p.schema !== undefined)
      .map((p) => ({
        name: p.name,
        in: p.in as ParameterModel['in'],
        required: p.required,
        schemaPointer: fragment(p.schema!.pointer),
        schema: p.schema!.schema as JsonSchema,
      })),
    querySchemaPointer: queryObjectPointer(operation),
    body:
      operation.requestBody && mediaType && media?.schema
        ? { required: operation.requestBody.required, mediaType, schemaPointer: fragment(media.schema.pointer) }
        : undefined,
    successMediaTypes: [
      ...new Set(
        Object.values(operation.responses)
          .filter((r) => r.status.startsWith('2'))
          .flatMap((r) => Object.keys(r.content)),
      ),
    ],
    secured: security.some((requirement) => Object.keys(requirement).length > 0),
    source: operation,
  };
}

/** Every operation of the document, in document order. */
export function operationsOf(document: OpenApiDocument): OperationModel[] {
  return [...operations(document)].map((operation) => modelOf(document, operation));
}

/** @throws OpenApiDocumentError when the document has no such operation. */
export function operationById(document: OpenApiDocument, operationId: string): OperationModel {
  return modelOf(document, findOperation(document, operationId));
}
