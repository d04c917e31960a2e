import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * The repository's OpenAPI document. This file sits at the same depth in `src/` and `dist/`,
 * so one relative URL serves tests (from source) and the built server alike; the document is
 * read, never copied, so that the sandbox cannot drift from it.
 */
export const DEFAULT_OPENAPI_PATH = fileURLToPath(new URL('../../../../openapi/openapi.yaml', import.meta.url));

/** The parts of an OpenAPI document the sandbox reads. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation | unknown>>;
  components: { schemas: Record<string, unknown>; parameters?: Record<string, OpenApiParameter> };
  [key: string]: unknown;
}

export interface OpenApiParameter {
  name?: string;
  in?: string;
  required?: boolean;
  schema?: unknown;
  $ref?: string;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}

/** Reads and parses the document; `SANDBOX_OPENAPI_PATH` overrides the location. */
export function loadOpenApiDocument(
  path: string = process.env['SANDBOX_OPENAPI_PATH'] ?? DEFAULT_OPENAPI_PATH,
): OpenApiDocument {
  const document = parse(readFileSync(path, 'utf8')) as OpenApiDocument;
  if (typeof document?.openapi !== 'string' || !document.openapi.startsWith('3.1')) {
    throw new Error(`${path} is not an OpenAPI 3.1 document`);
  }
  return document;
}
