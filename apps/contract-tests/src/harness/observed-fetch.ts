import { appendFileSync } from 'node:fs';
import { loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { createDocumentValidator } from './document-validator.js';

const document = loadOpenApiDocument();
export const documentValidator = createDocumentValidator(document);

// A parameter matches an empty segment too: the engine sends one on purpose (an invalid path
// parameter), and its answer is the operation's to judge.
const routes = [...operations(document)].map(({ operationId, method, path }) => ({
  operationId,
  method: method.toUpperCase(),
  pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]*')}$`),
}));

export function operationOf(method: string, url: string): string | undefined {
  const { pathname } = new URL(url);
  return routes.find((o) => o.method === method.toUpperCase() && o.pattern.test(pathname))?.operationId;
}

/** Problems found in responses since the last `takeViolations()`. */
let violations: string[] = [];
export function takeViolations(): string[] {
  const taken = violations;
  violations = [];
  return taken;
}

/**
 * A `fetch` for the packages under test that checks every response it hands over against the
 * document (status documented, body valid) and records which (operation, status) pairs the
 * suite has exercised, for the coverage check of the runner.
 */
export const observedFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  const operationId = operationOf(request.method, request.url);
  if (!operationId) {
    violations.push(`${request.method} ${new URL(request.url).pathname} is not an operation of the document`);
    return response;
  }
  if (process.env.CONTRACT_COVERAGE_FILE) {
    appendFileSync(process.env.CONTRACT_COVERAGE_FILE, `${JSON.stringify({ operationId, status: response.status })}\n`);
  }
  const contentType = response.headers.get('content-type') ?? '';
  // Prism's --errors proxy turns a response that breaks the document into a 500 that names it.
  const sl = response.headers.get('sl-violations');
  if (sl && (target.mode === 'proxy' || target.mode === 'sandbox')) {
    violations.push(`${operationId} ${response.status}: server response breaks the document: ${sl}`);
  }
  if (contentType.includes('text/event-stream')) {
    // Stream bodies are checked event by event by the suite; reading them here could block.
    return response;
  }
  const text = await response.clone().text();
  let body: unknown = text;
  if (contentType.includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      violations.push(`${operationId} ${response.status}: body is not JSON: ${text.slice(0, 120)}`);
      return response;
    }
  }
  for (const problem of documentValidator.validateResponse(operationId, response.status, contentType, body)) {
    violations.push(`${operationId} ${response.status}: ${problem}`);
  }
  return response;
};

import { target } from './target.js';
