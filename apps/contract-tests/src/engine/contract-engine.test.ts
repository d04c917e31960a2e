// The engine against the sandbox, which keeps the contract, and against the same sandbox through a
// fetch that plants one contract bug at a time: the engine must pass the first and fail each of
// the others, naming the operation and the rule.
import { findOperation, loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { createRequestChecker } from '@browser-cloud/request-checker';
import { DEFAULT_FIXTURE_REFS as R, type RunningSandbox, flowTypesOf, startSandbox } from '@browser-cloud/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sandboxResources } from '../../scripts/targets.mjs';
import { createDocumentValidator } from './judge.js';
import { knownValues, resourcesFrom } from './resources.js';
import { type CaseKind, runGeneratedCases } from './plan.js';
import { type Fault, faultyFetch } from './test-support/faulty-fetch.js';

const document = loadOpenApiDocument();
const checker = createRequestChecker(document);
const validator = createDocumentValidator(document);
const TOKEN = R.tokens.owner;
const RESOURCES = resourcesFrom(sandboxResources(R));
const SEED = 20261123;
const RUNS = 30;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, retryMs: 50, keepAliveMs: 60_000 });
});
beforeEach(() => sandbox.state.reset());
afterAll(() => sandbox?.close());

function judge(operationId: string, kind: CaseKind, runs = RUNS, fetch?: typeof globalThis.fetch) {
  const operation = findOperation(document, operationId);
  return runGeneratedCases({
    document,
    operation,
    kind,
    checker,
    validator,
    target: { baseUrl: sandbox.url, token: TOKEN, fetch },
    known: knownValues(operation, RESOURCES),
    seed: SEED,
    runs,
    // A stream is read until its first complete data event (the sandbox's logs all have lines),
    // not for a fixed window: a slow host then only waits longer, it never checks nothing.
    limits: { answerMs: 5_000, streamMs: 10_000, streamUntil: (text) => /^data:.*\n\n/m.test(text) },
  });
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
type AnswerFault = NonNullable<Fault['answer']>;
const jsonAnswer =
  (change: (body: Record<string, unknown>) => unknown): AnswerFault =>
  (answer) => ({ ...answer, body: JSON.stringify(change(json(answer.body))) });
const on =
  (method: string, path: RegExp, status: number, fault: AnswerFault): AnswerFault =>
  (answer) =>
    answer.request.method === method && path.test(answer.request.url) && answer.status === status
      ? fault(answer)
      : answer;
const LOGIN = /^\/auth\/connections\/[^/]+\/login/;
const PROFILE = /^\/profiles\//;

describe('the contract engine', () => {
  it.each(
    [...operations(document)].flatMap(({ operationId }) => [
      [operationId, 'valid'],
      [operationId, 'invalid'],
    ]) as [string, CaseKind][],
  )('passes the sandbox, which keeps the contract: %s, %s cases', async (operationId, kind) => {
    const result = await judge(operationId, kind);
    expect(result.report).toBeUndefined();
    expect(result.ok).toBe(true);
    // Invalid runs break every rule once before their RUNS drawn cases.
    expect(result.runs).toBeGreaterThan(kind === 'invalid' ? RUNS : RUNS - 1);
  });

  const faults: [string, string, CaseKind, Fault, string[]][] = [
    [
      'a dropped required field',
      'loginAuthConnection',
      'valid',
      {
        answer: on(
          'POST',
          LOGIN,
          200,
          jsonAnswer(({ hosted_url: _, ...rest }) => rest),
        ),
      },
      ['hosted_url: is required'],
    ],
    [
      'an undeclared property',
      'renameProfile',
      'valid',
      {
        answer: on(
          'PATCH',
          PROFILE,
          200,
          jsonAnswer((body) => ({ ...body, zz_not_in_document: 'x' })),
        ),
      },
      ['zz_not_in_document: is not a known property'],
    ],
    [
      'an undeclared property in a login response',
      'loginAuthConnection',
      'valid',
      {
        answer: on(
          'POST',
          LOGIN,
          200,
          jsonAnswer((body) => ({ ...body, zz_undeclared_region: 'eu-west' })),
        ),
      },
      ['zz_undeclared_region: is not a known property'],
    ],
    [
      'an undeclared property in a log event',
      'streamBrowserLogs',
      'valid',
      // A name no release will give LogEvent (`level` may well come: the API workflow test adds it).
      { streamLine: (line) => line.replace(/^data: \{/, 'data: {"undeclared_by_the_document":"info",') },
      ['undeclared_by_the_document: is not a known property'],
    ],
    [
      'a wrong enum value',
      'loginAuthConnection',
      'valid',
      {
        answer: on(
          'POST',
          LOGIN,
          200,
          jsonAnswer((body) => ({ ...body, flow_type: 'ZZ_NOT_A_FLOW_TYPE' })),
        ),
      },
      [
        `flow_type: must be one of ${Object.values(flowTypesOf(document))
          .map((t) => `"${t}"`)
          .join(', ')}`,
      ],
    ],
    [
      'a 256-character name accepted',
      'renameProfile',
      'invalid',
      {
        request: (request) => {
          if (request.method !== 'PATCH') return request;
          try {
            const body = json(request.body);
            if (typeof body.name === 'string')
              return { ...request, body: JSON.stringify({ ...body, name: body.name.slice(0, 255) }) };
          } catch {}
          return request;
        },
      },
      ['maxLength: /name longer than 255', 'the invalid request was accepted'],
    ],
    [
      'an unknown property accepted',
      'loginAuthConnection',
      'invalid',
      {
        // The server drops top-level properties it does not know instead of refusing them.
        request: (request) => {
          if (request.method !== 'POST') return request;
          try {
            const { proxy, record_session, browser_telemetry } = json(request.body);
            return { ...request, body: JSON.stringify({ proxy, record_session, browser_telemetry }) };
          } catch {
            return request;
          }
        },
      },
      ['additionalProperties: (root) with an unknown property', 'expected 400'],
    ],
    [
      'a rename answered 500',
      'renameProfile',
      'valid',
      {
        answer: on('PATCH', PROFILE, 200, (answer) => ({
          ...answer,
          status: 500,
          body: JSON.stringify({ code: 'internal_error', message: 'the database is away' }),
        })),
      },
      ['a valid request got 500, a server error'],
    ],
    [
      'a non-Error error body',
      'streamBrowserLogs',
      'invalid',
      {
        answer: (answer) =>
          answer.status === 400 ? { ...answer, body: JSON.stringify({ error: 'bad request' }) } : answer,
      },
      ['code: is required'],
    ],
    [
      'an empty path parameter accepted',
      'renameProfile',
      'invalid',
      {
        // The server routes `PATCH /profiles/` to a profile instead of refusing it (whatever the query).
        request: (request) =>
          request.method === 'PATCH' && request.url.split('?')[0] === '/profiles/'
            ? { ...request, url: request.url.replace('/profiles/', `/profiles/${R.profiles.defaultProject.id}`) }
            : request,
      },
      ['path minLength: id_or_name shorter than 1', 'expected 400 or 404'],
    ],
    [
      'a missing token accepted',
      'renameProfile',
      'invalid',
      {
        request: (request) =>
          request.headers.authorization
            ? request
            : { ...request, headers: { ...request.headers, authorization: `Bearer ${TOKEN}` } },
      },
      ['security: no bearer token', 'expected 401'],
    ],
    [
      'a log event with a bad timestamp',
      'streamBrowserLogs',
      'valid',
      { streamLine: (line) => line.replace(/"timestamp":"[^"]*"/, '"timestamp":"yesterday"') },
      ['timestamp: must match format "date-time"'],
    ],
    [
      'a stream with the wrong content type',
      'streamBrowserLogs',
      'valid',
      { streamHeaders: (headers) => ({ ...headers, 'content-type': 'text/plain' }) },
      ['content type "text/plain" is not documented'],
    ],
  ];

  it.each(faults)(
    'catches %s in %s (%s cases), naming the operation and the rule',
    async (_what, operationId, kind, fault, rules) => {
      // One drawn invalid case: the rules broken once each on every run must find the fault.
      const result = await judge(operationId, kind, kind === 'invalid' ? 1 : RUNS, faultyFetch(fault));
      expect(result.ok).toBe(false);
      expect(result.report).toContain(`${operationId}: `);
      for (const rule of rules) expect(result.report).toContain(rule);
      const reproduce = /reproduce: (curl .*)/.exec(result.report ?? '')?.[1];
      expect(reproduce, 'the report has a reproduce line').toBeDefined();
      // The case sent without a token is reproduced without one; every other with the header.
      if (rules.includes('security: no bearer token')) expect(reproduce).not.toContain('Authorization');
      else expect(reproduce).toContain(`-H "Authorization: Bearer $API_TOKEN"`);
      expect(result.report).not.toContain(TOKEN);
    },
  );
});
