import { appendFileSync } from 'node:fs';
import { isRefusal } from '@browser-cloud/request-checker';
import { readBoundedBody } from '@browser-cloud/sse';
import { answerOf } from '../engine/exchange.js';
import { checker, documentValidator, target } from './target.js';

const violations: string[] = [];

/**
 * The disagreements with the document seen since the last call, which the suite's setup file
 * (check-every-response.ts) fails each case with: every response any case receives must agree
 * with the document, whatever the case asserts.
 */
export const takeViolations = (): string[] => violations.splice(0);

/** A `fetch` that checks every response against the document and records its operation and status (coverage). */
export const observedFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  // The checker's routing matches an empty segment too: the engine sends one on purpose (an
  // invalid path parameter), and its answer is the operation's to judge.
  const { pathname } = new URL(request.url);
  const match = checker.route(request.method, pathname);
  if (isRefusal(match)) {
    violations.push(`${request.method} ${pathname} is not an operation of the document`);
    return response;
  }
  const { operation } = match;
  const { operationId } = operation;
  const file = process.env.CONTRACT_COVERAGE_FILE;
  if (file) appendFileSync(file, `${JSON.stringify({ operationId, status: response.status })}\n`);
  const where = `${operationId} ${response.status}`;
  // Prism's --errors proxy turns a response that breaks the document into a 500 that names it.
  const sl = response.headers.get('sl-violations');
  if (sl && (target.mode === 'proxy' || target.mode === 'sandbox'))
    violations.push(`${where}: server response breaks the document: ${sl}`);
  // Stream bodies are checked event by event by the cases; reading them here could block.
  if (/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) return response;
  const { text } = await readBoundedBody(response.clone().body, 1024 * 1024);
  for (const problem of documentValidator.judge(operation, answerOf(response, text), [response.status]))
    violations.push(`${where}: ${problem}`);
  return response;
};
