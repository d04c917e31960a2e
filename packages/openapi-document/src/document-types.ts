/** The parts of an OpenAPI 3.1 document that this package reads; the index signatures keep the rest reachable. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths?: Record<string, PathItemObject> | undefined;
  components?: { schemas?: Record<string, JsonSchema> | undefined; [key: string]: unknown } | undefined;
  [key: string]: unknown;
}

/** A JSON Schema as the document holds it (2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown> | boolean;

export interface Reference {
  $ref: string;
}

export interface PathItemObject {
  parameters?: (ParameterObject | Reference)[] | undefined;
  [key: string]: unknown;
}

export interface OperationObject {
  operationId?: string | undefined;
  parameters?: (ParameterObject | Reference)[] | undefined;
  requestBody?: RequestBodyObject | Reference | undefined;
  responses?: Record<string, ResponseObject | Reference> | undefined;
  [key: string]: unknown;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean | undefined;
  schema?: JsonSchema | undefined;
  [key: string]: unknown;
}

export interface MediaTypeObject {
  schema?: JsonSchema | undefined;
  example?: unknown;
  examples?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

export interface RequestBodyObject {
  required?: boolean | undefined;
  content?: Record<string, MediaTypeObject> | undefined;
  [key: string]: unknown;
}

export interface ResponseObject {
  description?: string | undefined;
  headers?: Record<string, HeaderObject | Reference> | undefined;
  content?: Record<string, MediaTypeObject> | undefined;
  [key: string]: unknown;
}

export interface HeaderObject {
  required?: boolean | undefined;
  schema?: JsonSchema | undefined;
  [key: string]: unknown;
}
