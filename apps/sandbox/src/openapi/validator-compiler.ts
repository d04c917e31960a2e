import type { FastifySchemaCompiler } from 'fastify';
import { createAjv } from './create-ajv.js';
import type { OpenApiDocument } from './document.js';
import { DOCUMENT_ID } from './route-schemas.js';
import { documentAjv } from './schema-validators.js';

/**
 * Fastify's validator compiler over the OpenAPI document: Ajv for JSON Schema 2020-12 (OpenAPI
 * 3.1's dialect) with the document registered whole, so that route schemas are `$ref`s into it.
 * Bodies are checked as sent; path and query values arrive as strings, so those get type
 * coercion (`follow=true` becomes a boolean).
 */
export function openApiValidatorCompiler(document: OpenApiDocument): FastifySchemaCompiler<unknown> {
  const exact = documentAjv(document);
  // Options as documentAjv's (`strict: false` for the OpenAPI keywords beside the schemas,
  // `verbose` for the descriptions that explain a failed `not`), plus coercion.
  const coercing = createAjv({ strict: false, verbose: true, coerceTypes: true });
  coercing.addSchema({ ...document, $id: DOCUMENT_ID });
  return ({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema as object);
}
