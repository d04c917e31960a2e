// The checks an answer must pass. Valid requests: a documented status (never a 5xx) whose body,
// content type and headers match the document. Invalid requests: refused with the status the broken
// rule calls for (400, or 401 without a token) and an Error body, as the document describes it.
import type { DocumentValidator } from '../harness/document-types.js';
import type { Answer } from './exchange.js';
import type { OperationModel } from './operations.js';

type Node = Record<string, unknown>;

export interface Judge {
  valid(operation: OperationModel, answer: Answer): string[];
  invalid(operation: OperationModel, answer: Answer, expectedStatus: number): string[];
}

export function createJudge(validator: DocumentValidator, deref: (n: unknown) => Node): Judge {
  function documentedResponse(operation: OperationModel, status: number): Node | undefined {
    const { operation: raw } = validator.findOperation(operation.operationId);
    const responses = (raw.responses ?? {}) as Record<string, unknown>;
    const code = String(status);
    const key = [code, `${code[0]}XX`, 'default'].find((k) => k in responses);
    return key ? deref(responses[key]) : undefined;
  }

  /** Body, content type and documented headers of the answer against the document. */
  function conformance(operation: OperationModel, answer: Answer): string[] {
    const body = answer.json !== undefined ? answer.json : answer.text;
    if (/json/i.test(answer.contentType) && answer.json === undefined) {
      return [`body: not JSON although the content type is "${answer.contentType}": ${answer.text.slice(0, 120)}`];
    }
    const problems = validator
      .validateResponse(operation.operationId, answer.status, answer.contentType, body)
      .map((p) => `response ${answer.status}: ${p}`);
    const response = documentedResponse(operation, answer.status);
    for (const [name, raw] of Object.entries((response?.headers ?? {}) as Record<string, unknown>)) {
      const header = deref(raw);
      const value = answer.headers.get(name);
      if (value === null) {
        if (header.required === true) problems.push(`header ${name}: required by the document, missing`);
        continue;
      }
      const schema = deref(header.schema ?? {});
      if (schema.type === 'string' && typeof schema.minLength === 'number' && value.length < schema.minLength) {
        problems.push(`header ${name}: shorter than ${schema.minLength}`);
      }
    }
    return problems;
  }

  return {
    valid(operation, answer) {
      if (answer.status >= 500) {
        return [`status: a valid request got ${answer.status}, a server error`, ...conformance(operation, answer)];
      }
      return conformance(operation, answer);
    },
    invalid(operation, answer, expectedStatus) {
      const problems: string[] = [];
      if (answer.status !== expectedStatus) {
        problems.push(
          `status: expected ${expectedStatus} with an Error body, got ${answer.status}${answer.status < 300 ? ' (the invalid request was accepted)' : ''}`,
        );
      }
      return [...problems, ...conformance(operation, answer)];
    },
  };
}
