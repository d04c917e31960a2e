import { type OpenApiDocument, operations, resolveRef } from '@browser-cloud/openapi-document';

/**
 * The properties the sandbox's code writes into each schema it answers with (a JSON body or a
 * stream's event data): `profileBody` (domain/rename.ts), `startLogin`'s answer
 * (domain/login.ts), `formatLogEvent` (sse/format-event.ts) and `errorBody` (http/api-error.ts).
 * The tests hold each list equal to what that code writes. A property the document drops is
 * left out of the answers by the serializer; one it adds as optional is simply never sent; one
 * it makes required that is not listed here stops the sandbox at start-up
 * ({@link checkProducedProperties}): the code must learn it first.
 */
export const PRODUCED_PROPERTIES: Readonly<Record<string, readonly string[]>> = {
  LoginResponse: ['id', 'flow_type', 'hosted_url', 'flow_expires_at', 'handoff_code', 'live_view_url'],
  Profile: ['id', 'name', 'created_at', 'updated_at', 'last_used_at'],
  LogEvent: ['event', 'timestamp', 'message'],
  Error: ['code', 'message', 'details', 'inner_error'],
};

/** The sandbox cannot answer as the document says. */
export class UnproducibleAnswerError extends Error {
  override name = 'UnproducibleAnswerError';
}

/**
 * Checks, before the sandbox starts, that it can produce every answer of the document: each
 * JSON body and event data schema is one it writes, and each property the schema requires is
 * one it writes. @throws UnproducibleAnswerError with one line naming the schema and property.
 */
export function checkProducedProperties(document: OpenApiDocument): void {
  for (const { operationId, responses } of operations(document)) {
    for (const [status, { content }] of Object.entries(responses)) {
      for (const [mediaType, { media }] of Object.entries(content)) {
        const schema = media.schema as { $ref?: unknown; 'x-sse-event-data'?: { $ref?: unknown } } | undefined;
        const ref = mediaType === 'text/event-stream' ? schema?.['x-sse-event-data']?.$ref : schema?.$ref;
        if (typeof ref !== 'string') continue;
        const name = ref.split('/').pop() ?? ref;
        const produced = PRODUCED_PROPERTIES[name];
        if (produced === undefined) {
          throw new UnproducibleAnswerError(
            `The sandbox cannot start: ${operationId} answers ${status} ${mediaType} with ${name}, a schema the sandbox does not produce.`,
          );
        }
        const { required = [] } = resolveRef(document, ref) as { required?: string[] };
        const missing = required.find((property) => !produced.includes(property));
        if (missing !== undefined) {
          throw new UnproducibleAnswerError(
            `The sandbox cannot start: the document requires ${name}.${missing}, which the sandbox does not produce (${operationId} ${status}).`,
          );
        }
      }
    }
  }
}
