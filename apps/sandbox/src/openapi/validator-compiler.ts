import { createDocumentAjv, documentAjv, type OpenApiDocument } from '@browser-cloud/openapi-document';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Fastify's validator compiler over the OpenAPI document: Ajv for JSON Schema 2020-12 (OpenAPI
 * 3.1's dialect) with the document registered whole, so that route schemas are `$ref`s into it.
 * Bodies are checked as sent, by the document's one Ajv (shared with the response and fixture
 * checks); path and query values arrive as strings, so those get type coercion (`follow=true`
 * becomes a boolean).
 */
export function openApiValidatorCompiler(document: OpenApiDocument): FastifySchemaCompiler<unknown> {
  const exact = documentAjv(document);
  const coercing = createDocumentAjv(document, { coerceTypes: true });
  return ({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema as object);
}
