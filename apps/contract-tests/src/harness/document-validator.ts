import { toIssues } from '@browser-cloud/api-types';
import {
  eventStreamData,
  findResponse,
  type OpenApiDocument,
  type Operation,
  schemaValidator,
} from '@browser-cloud/openapi-document';

/** Checks data against the document's own schemas (formats asserted); each returns problems, [] when valid. */
export interface DocumentValidator {
  /** `data` against the schema at `pointer` (`/components/schemas/Profile`). */
  validateAt(pointer: string, data: unknown): string[];
  /**
   * A response body against what the document says `operation` answers with `status` and
   * `contentType`. An undocumented status or media type is itself a problem. For
   * `text/event-stream`, each event's data is checked against `x-sse-event-data`.
   */
  validateResponse(operation: Operation, status: number, contentType: string | null, body: unknown): string[];
}

export function createDocumentValidator(document: OpenApiDocument): DocumentValidator {
  function validateAt(pointer: string, data: unknown): string[] {
    const validate = schemaValidator(document, pointer);
    if (validate(data)) return [];
    return toIssues(validate.errors ?? [], data, '(root)', { prefixFields: false }).map((issue) => issue.message);
  }

  function validateResponse(operation: Operation, status: number, contentType: string | null, body: unknown): string[] {
    const { operationId } = operation;
    const response = findResponse(operation, status);
    if (response === undefined) return [`status ${status} is not documented for ${operationId}`];
    const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const media = Object.keys(response.content);
    if (media.length === 0)
      return body === undefined || body === '' ? [] : [`${operationId} ${status} documents no body`];
    const documented = response.content[mediaType];
    if (documented === undefined) {
      return [`${operationId} ${status}: content type "${mediaType}" is not documented (${media.join(', ')})`];
    }
    if (documented.schema === undefined) return [];
    const problems = validateAt(documented.schema.pointer, body);
    const eventData = operation.success?.eventData;
    if (mediaType !== 'text/event-stream' || typeof body !== 'string' || eventData === undefined) return problems;
    eventStreamData(body).forEach((data, i) => {
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        problems.push(`event ${i}: data is not JSON: ${data.slice(0, 80)}`);
        return;
      }
      for (const p of validateAt(eventData.pointer, value)) problems.push(`event ${i}: ${p}`);
    });
    return problems;
  }

  return { validateAt, validateResponse };
}
