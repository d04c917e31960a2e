import { loadOpenApiDocument, OPENAPI_PATH, type OpenApiDocument } from '@browser-cloud/openapi-document';

/**
 * The document the sandbox serves: the repository's, read where it is (never copied, so the
 * sandbox cannot drift from it), or the one `SANDBOX_OPENAPI_PATH` names.
 */
export function loadSandboxDocument(): OpenApiDocument {
  return loadOpenApiDocument(process.env['SANDBOX_OPENAPI_PATH'] ?? OPENAPI_PATH);
}
