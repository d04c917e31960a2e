// The checks an answer must pass, against the document's own schemas (Ajv, formats asserted).
import { toIssues } from '@browser-cloud/api-types';
import {
  eventStreamData,
  findResponse,
  type OpenApiDocument,
  type Operation,
  schemaValidator,
} from '@browser-cloud/openapi-document';
import type { Answer } from './exchange.js';

/** Checks against the document; each returns the problems found, [] when there are none. */
export type DocumentValidator = ReturnType<typeof createDocumentValidator>;

/** An answer that breaks the contract: the problems, the answer, and a curl command that sends the request again. */
export class Broken extends Error {
  constructor(
    readonly problems: string[],
    readonly sent: { answer?: Answer | undefined; curl?: string | undefined } = {},
  ) {
    super(problems.join('; '));
  }

  /** The report, under `head` (the operation and what broke): each problem, the answer, the curl command. */
  report(head: string, excerpt = 200): string {
    const { answer, curl } = this.sent;
    const lines = [head, ...this.problems.map((p) => `  - ${p}`)];
    if (answer) lines.push(`  answer: ${answer.status} ${answer.contentType} ${answer.text.slice(0, excerpt)}`);
    if (curl) lines.push(`  reproduce: ${curl}`);
    return lines.join('\n');
  }
}

export function createDocumentValidator(document: OpenApiDocument) {
  /** `data` against the schema at `pointer` (`/components/schemas/Profile`). */
  function validateAt(pointer: string, data: unknown): string[] {
    const validate = schemaValidator(document, pointer);
    if (validate(data)) return [];
    return toIssues(validate.errors ?? [], data, '(root)', { prefixFields: false }).map((issue) => issue.message);
  }

  /** A body against the response `operation` documents for `status` and `contentType` (and `x-sse-event-data`). */
  function validateResponse(operation: Operation, status: number, contentType: string | null, body: unknown) {
    const { operationId } = operation;
    const response = findResponse(operation, status);
    if (response === undefined) return [`status ${status} is not documented for ${operationId}`];
    const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const media = Object.keys(response.content);
    if (media.length === 0)
      return body === undefined || body === '' ? [] : [`${operationId} ${status} documents no body`];
    const documented = response.content[mediaType];
    if (documented === undefined)
      return [`${operationId} ${status}: content type "${mediaType}" is not documented (${media.join(', ')})`];
    if (documented.schema === undefined) return [];
    const problems = validateAt(documented.schema.pointer, body);
    const eventData = operation.success?.eventData;
    if (mediaType !== 'text/event-stream' || typeof body !== 'string' || eventData === undefined) return problems;
    eventStreamData(body).forEach((data, i) => {
      try {
        for (const p of validateAt(eventData.pointer, JSON.parse(data))) problems.push(`event ${i}: ${p}`);
      } catch {
        problems.push(`event ${i}: data is not JSON: ${data.slice(0, 80)}`);
      }
    });
    return problems;
  }

  /**
   * The answer's status against `expected` (any documented one but a 5xx when not given), then its
   * body, content type and documented headers against the document.
   */
  function judge(operation: Operation, answer: Answer, expected?: readonly number[]): string[] {
    const { status } = answer;
    const problems: string[] = [];
    if (expected === undefined && status >= 500) problems.push(`status: a valid request got ${status}, a server error`);
    if (expected !== undefined && !expected.includes(status)) {
      const error = expected.every((s) => s >= 400) ? ' with an Error body' : '';
      const accepted = status < 300 && error ? ' (the invalid request was accepted)' : '';
      problems.push(`status: expected ${expected.join(' or ')}${error}, got ${status}${accepted}`);
    }
    if (/json/i.test(answer.contentType) && answer.json === undefined) {
      return [
        ...problems,
        `body: not JSON although the content type is "${answer.contentType}": ${answer.text.slice(0, 120)}`,
      ];
    }
    const body = answer.json !== undefined ? answer.json : answer.text;
    for (const p of validateResponse(operation, status, answer.contentType, body))
      problems.push(`response ${status}: ${p}`);
    for (const header of Object.values(findResponse(operation, status)?.headers ?? {})) {
      const value = answer.headers.get(header.name);
      if (value === null && header.required) problems.push(`header ${header.name}: required by the document, missing`);
      if (value === null || !header.schema) continue;
      for (const p of validateAt(header.schema.pointer, value)) problems.push(`header ${header.name}: ${p}`);
    }
    return problems;
  }

  return { validateAt, validateResponse, judge };
}
