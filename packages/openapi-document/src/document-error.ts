/** The document cannot be used: unreadable, not OpenAPI, or a `$ref` that does not resolve. */
export class OpenApiDocumentError extends Error {
  override readonly name = 'OpenApiDocumentError';
  /** Where in the document the problem is (a JSON pointer), when it is one place: what the lint points at. */
  readonly pointer: string | undefined;

  constructor(message: string, options: { pointer?: string; cause?: unknown } = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.pointer = options.pointer;
  }
}
