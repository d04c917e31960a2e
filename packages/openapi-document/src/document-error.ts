/** The document cannot be used: unreadable, not OpenAPI, or a `$ref` that does not resolve. */
export class OpenApiDocumentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OpenApiDocumentError';
  }
}
