// What the case generator needs to know of each operation, read from the document: where its
// parameters and body live (as JSON pointers, so that Ajv validates against the document itself)
// and what it answers. The pointer and $ref helpers are the document module's; this file only
// arranges them per operation.
import { deref, escapePointerToken, pointerOf } from '../harness/document.js';

export type JsonSchema = Record<string, unknown>;

export interface ParameterModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** Pointer of the parameter's schema, for Ajv. */
  schemaPointer: string;
  /** The schema itself, with its top-level $ref followed. */
  schema: JsonSchema;
}

export interface OperationModel {
  operationId: string;
  method: string;
  /** The path template, e.g. `/profiles/{id_or_name}`. */
  path: string;
  parameters: ParameterModel[];
  /**
   * Pointer of one object schema that states the whole query, when the query parameters are the
   * properties of one (`LogStreamQuery`): its rules across parameters then apply to the query.
   */
  querySchemaPointer: string | undefined;
  body: { required: boolean; mediaType: string; schemaPointer: string } | undefined;
  /** True when the operation (or the document) requires a security scheme. */
  secured: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: the document is YAML read at run time, walked by shape
type Node = Record<string, any>;

/** The object schema whose `properties/<name>` every query parameter's schema refers to, if any. */
function queryObjectPointer(parameters: { name: string; in: string; ref: string | undefined }[]): string | undefined {
  const query = parameters.filter((p) => p.in === 'query');
  if (query.length === 0) return undefined;
  const parents = new Set(
    query.map((p) => {
      const suffix = `/properties/${escapePointerToken(p.name)}`;
      return p.ref?.endsWith(suffix) ? p.ref.slice(0, -suffix.length) : undefined;
    }),
  );
  const [parent] = parents;
  return parents.size === 1 && parent ? parent : undefined;
}

/** Every operation of the document, in document order. */
export function operationsOf(document: Node): OperationModel[] {
  const models: OperationModel[] = [];
  for (const [path, item] of Object.entries(document.paths as Node)) {
    for (const [method, operation] of Object.entries(item as Node)) {
      if (!operation || typeof operation !== 'object' || !('operationId' in operation)) continue;
      const found = (operation.parameters ?? []).map((raw: Node, index: number) => {
        const parameter = deref(document, raw) as Node;
        const base = typeof raw.$ref === 'string' ? raw.$ref : pointerOf('paths', path, method, 'parameters', index);
        const schemaNode = parameter.schema as Node;
        return {
          name: parameter.name as string,
          in: parameter.in as ParameterModel['in'],
          required: parameter.required === true,
          schemaPointer: `${base}/schema`,
          schema: deref(document, schemaNode) as JsonSchema,
          ref: typeof schemaNode.$ref === 'string' ? schemaNode.$ref : undefined,
        };
      });
      const requestBody = operation.requestBody ? (deref(document, operation.requestBody) as Node) : undefined;
      const mediaType = requestBody ? Object.keys(requestBody.content ?? {})[0] : undefined;
      const bodyBase =
        typeof operation.requestBody?.$ref === 'string'
          ? operation.requestBody.$ref
          : pointerOf('paths', path, method, 'requestBody');
      const security = operation.security ?? document.security ?? [];
      models.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        parameters: found.map(({ ref: _ref, ...parameter }: ParameterModel & { ref: unknown }) => parameter),
        querySchemaPointer: queryObjectPointer(found),
        body:
          requestBody && mediaType
            ? {
                required: requestBody.required === true,
                mediaType,
                schemaPointer: `${bodyBase}/content/${escapePointerToken(mediaType)}/schema`,
              }
            : undefined,
        secured: security.some((requirement: Node) => Object.keys(requirement).length > 0),
      });
    }
  }
  return models;
}

export function operationById(document: Node, operationId: string): OperationModel {
  const found = operationsOf(document).find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation "${operationId}" in the document`);
  return found;
}
