/** The document cannot be used: unreadable, not OpenAPI, or a `$ref` that does not resolve. */
export class OpenApiDocumentError extends Error {
  override readonly name = 'OpenApiDocumentError';
}
