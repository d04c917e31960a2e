import { inlineRefs, type OpenApiDocument } from '@browser-cloud/openapi-document';
import type { LocatedOperation } from './route-schemas.js';

const JSON_TYPE = 'application/json';
const EVENT_STREAM = 'text/event-stream';

/** Fastify's `response` route schema: by status, the schema of each `application/json` answer. */
export type ResponseSchemas = Record<string, { content: { [JSON_TYPE]: { schema: object } } }>;

/**
 * The `response` part of an operation's Fastify route schema: each JSON answer the document
 * gives the operation, by status. Fastify serialises a reply with the schema of its status
 * (fast-json-stringify), so the sandbox answers through the document: a property its code still
 * writes but the document no longer has is left out, with no code change. The schemas are
 * inlined copies (the serializer follows no reference into the document); the request side and
 * the self-check (`responseCheck`) keep checking the document's own schemas.
 */
export function responseSchemas(document: OpenApiDocument, located: LocatedOperation): ResponseSchemas {
  const schemas: ResponseSchemas = {};
  for (const [status, response] of Object.entries(located.responses)) {
    const media = response.content[JSON_TYPE]?.media;
    if (media?.schema === undefined) continue;
    // `4XX` in OpenAPI, `4xx` in Fastify.
    schemas[status.toLowerCase()] = {
      content: { [JSON_TYPE]: { schema: inlineRefs(document, media.schema) as object } },
    };
  }
  return schemas;
}

/**
 * The schema of each event's data of the operation's 200 event stream (`x-sse-event-data`), inlined:
 * what the stream serialises its events with. Undefined for an operation without a stream.
 */
export function eventDataSchema(
  document: OpenApiDocument,
  located: LocatedOperation,
): Record<string, unknown> | undefined {
  const schema = located.responses['200']?.content[EVENT_STREAM]?.media.schema as
    | { 'x-sse-event-data'?: unknown }
    | undefined;
  const data = schema?.['x-sse-event-data'];
  return data === undefined ? undefined : (inlineRefs(document, data) as Record<string, unknown>);
}
