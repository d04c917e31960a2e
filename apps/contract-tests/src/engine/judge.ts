// The checks an answer must pass. Valid requests: a documented status (never a 5xx) whose body,
// content type and headers match the document. Invalid requests: refused with the status the broken
// rule calls for (400, or 401 without a token) and an Error body, as the document describes it.
import { findResponse, type Operation } from '@browser-cloud/openapi-document';
import type { DocumentValidator } from '../harness/document-validator.js';
import type { Answer } from './exchange.js';

/** `expected`: the statuses the case calls for; any documented one but a 5xx when not given. */
export type Judge = (operation: Operation, answer: Answer, expected?: readonly number[]) => string[];

export function createJudge(validator: DocumentValidator): Judge {
  /** Body, content type and documented headers of the answer against the document. */
  function conformance(operation: Operation, answer: Answer): string[] {
    if (/json/i.test(answer.contentType) && answer.json === undefined) {
      return [`body: not JSON although the content type is "${answer.contentType}": ${answer.text.slice(0, 120)}`];
    }
    const body = answer.json !== undefined ? answer.json : answer.text;
    const problems = validator
      .validateResponse(operation, answer.status, answer.contentType, body)
      .map((p) => `response ${answer.status}: ${p}`);
    for (const header of Object.values(findResponse(operation, answer.status)?.headers ?? {})) {
      const value = answer.headers.get(header.name);
      if (value === null) {
        if (header.required) problems.push(`header ${header.name}: required by the document, missing`);
      } else if (header.schema) {
        for (const p of validator.validateAt(header.schema.pointer, value))
          problems.push(`header ${header.name}: ${p}`);
      }
    }
    return problems;
  }
  return (operation, answer, expected) => {
    const { status } = answer;
    const problems: string[] = [];
    if (expected === undefined && status >= 500) problems.push(`status: a valid request got ${status}, a server error`);
    if (expected !== undefined && !expected.includes(status)) {
      const error = expected.every((s) => s >= 400) ? ' with an Error body' : '';
      problems.push(
        `status: expected ${expected.join(' or ')}${error}, got ${status}${status < 300 && error ? ' (the invalid request was accepted)' : ''}`,
      );
    }
    return [...problems, ...conformance(operation, answer)];
  };
}
