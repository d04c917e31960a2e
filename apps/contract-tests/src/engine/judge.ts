// The checks an answer must pass. Valid requests: a documented status (never a 5xx) whose body,
// content type and headers match the document. Invalid requests: refused with the status the broken
// rule calls for (400, or 401 without a token) and an Error body, as the document describes it.
import { findResponse } from '@browser-cloud/openapi-document';
import type { DocumentValidator } from '../harness/document-validator.js';
import type { Answer } from './exchange.js';
import type { OperationModel } from './operations.js';

export interface Judge {
  valid(operation: OperationModel, answer: Answer): string[];
  invalid(operation: OperationModel, answer: Answer, expectedStatuses: readonly number[]): string[];
}

export function createJudge(validator: DocumentValidator): Judge {
  /** Body, content type and documented headers of the answer against the document. */
  function conformance(operation: OperationModel, answer: Answer): string[] {
    const body = answer.json !== undefined ? answer.json : answer.text;
    if (/json/i.test(answer.contentType) && answer.json === undefined) {
      return [`body: not JSON although the content type is "${answer.contentType}": ${answer.text.slice(0, 120)}`];
    }
    const problems = validator
      .validateResponse(operation.operationId, answer.status, answer.contentType, body)
      .map((p) => `response ${answer.status}: ${p}`);
    const response = findResponse(operation.source, answer.status);
    for (const header of Object.values(response?.headers ?? {})) {
      const value = answer.headers.get(header.name);
      if (value === null) {
        if (header.required) problems.push(`header ${header.name}: required by the document, missing`);
        continue;
      }
      if (header.schema) {
        for (const p of validator.validateAt(header.schema.pointer, value))
          problems.push(`header ${header.name}: ${p}`);
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
    invalid(operation, answer, expectedStatuses) {
      const problems: string[] = [];
      if (!expectedStatuses.includes(answer.status)) {
        problems.push(
          `status: expected ${expectedStatuses.join(' or ')} with an Error body, got ${answer.status}${answer.status < 300 ? ' (the invalid request was accepted)' : ''}`,
        );
      }
      return [...problems, ...conformance(operation, answer)];
    },
  };
}
