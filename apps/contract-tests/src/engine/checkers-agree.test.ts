// The client's checks (the generated standalone validators, through the client's own calls) and
// the server's request checker (the sandbox's and the mock's front) keep one set of rules: values
// drawn from the document's schemas, valid and mutated one keyword at a time, are sent by the client
// exactly when the checker accepts them, and what the client sends is what the checker accepts.
import * as clientValidators from '@browser-cloud/api-types/validators';
import { callOperation, createClient, ValidationError } from '@browser-cloud/client';
import {
  deref,
  loadOpenApiDocument,
  type Operation,
  type OperationParameter,
  operations,
  operationSignature,
  schemaValidator,
} from '@browser-cloud/openapi-document';
import { createRequestChecker, isRefusal } from '@browser-cloud/request-checker';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutationsOf } from './invalid-mutations.js';
import { type Schema, schemaArbitrary } from './schema-arbitrary.js';

const document = loadOpenApiDocument();
const checker = createRequestChecker(document);
const d = (node: unknown) => deref(document, node) as Schema;
const at = (pointer: string) => ({ $ref: `#${pointer}` });

/** Parameters as the one object both sides check them as. */
const objectOf = (parameters: readonly OperationParameter[]) => ({
  type: 'object',
  properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema ? at(p.schema.pointer) : {}])),
  required: parameters.filter((p) => p.required).map((p) => p.name),
  additionalProperties: false,
});

/** Valid values of `schema`, and values that break one of its keywords (`textual`: as query values travel). */
function drawn(schema: unknown, textual = false): fc.Arbitrary<unknown> {
  const valid = schemaArbitrary(schema, { deref: d });
  const broken = valid.chain((value) => {
    const mutations = mutationsOf(schema, value, { deref: d, textual }).map((m) => m.value);
    return mutations.length > 0 ? fc.constantFrom(...mutations) : fc.constant(value);
  });
  // Mostly valid: a request is sent only when all its parts are, and both outcomes must be common
  // whatever the number of parts (3 to 1 each: 42 % of requests of three parts are valid).
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: broken, weight: 1 });
}

/** The request the client builds of these values: the path and query as it encodes them, the body as JSON. */
function wire(operation: Operation, values: { path: object; query: object; body: unknown }) {
  const pathname = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String((values.path as Record<string, unknown>)[name])),
  );
  const search = Object.entries(values.query)
    .filter(([, value]) => value != null)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return { pathname, search, body: values.body === undefined ? undefined : JSON.stringify(values.body) };
}

/** The checker's verdict on a request: undefined when accepted, else its refusal's details. */
function serverRefuses(operation: Operation, request: { pathname: string; search: string; body: string | undefined }) {
  const match = checker.route(operation.method, request.pathname);
  if (isRefusal(match)) return match.body;
  const checked = checker.check(match, {
    search: request.search,
    headers: { 'content-type': 'application/json' },
    body: request.body,
  });
  return isRefusal(checked) ? checked.body : undefined;
}

/** What the client does with the values: the request it sent, or its ValidationError. */
async function clientSends(operation: Operation, values: { path: object; query: object; body: unknown }) {
  const sent: Request[] = [];
  const client = createClient({
    baseUrl: 'http://127.0.0.1:1',
    token: 'agreement',
    maxRetries: 0,
    fetch: async (request) => {
      sent.push(request);
      return new Response(null, { status: 500 });
    },
  });
  const { call } = operationSignature(document, operation);
  try {
    const result = callOperation(client, call, values as never, {});
    if (Symbol.asyncIterator in Object(result)) await (result as AsyncIterable<unknown>)[Symbol.asyncIterator]().next();
    else await result;
  } catch (error) {
    if (error instanceof ValidationError) return { refused: error };
    if (sent.length === 0) throw error;
  }
  const request = sent[0]!;
  const url = new URL(request.url);
  const text = await request.text();
  return { request: { pathname: url.pathname, search: url.search.slice(1), body: text === '' ? undefined : text } };
}

describe('the client and the server check requests by one set of rules', () => {
  for (const operation of operations(document)) {
    const inPath = operation.parameters.filter((p) => p.in === 'path');
    const query = operation.query;
    const parts = fc.record({
      path: drawn(objectOf(inPath), true),
      query: query ? drawn(query.pointer ? at(query.pointer) : objectOf(query.parameters), true) : fc.constant({}),
      body: operation.body?.schema ? drawn(at(operation.body.schema.pointer)) : fc.constant(undefined),
    });

    it(`${operation.operationId}: the client sends exactly what the server accepts, and refuses what it refuses`, async () => {
      let sent = 0;
      let refused = 0;
      const agree = fc.asyncProperty(parts, async (values) => {
        // Parts drawn as something else than an object are not what a caller of the typed methods passes.
        fc.pre([values.path, values.query].every((v) => typeof v === 'object' && v !== null));
        // A URL has every path segment: the typed methods take each path value as an argument.
        fc.pre(inPath.every((p) => (values.path as Record<string, unknown>)[p.name] !== undefined));
        const outcome = await clientSends(operation, values as { path: object; query: object; body: unknown });
        if ('request' in outcome) {
          sent++;
          expect(serverRefuses(operation, outcome.request!)).toBeUndefined();
          return;
        }
        // A dot segment is refused for what URLs do to it, before any server could see it.
        if (outcome.refused.rule === 'pathSegment') return;
        refused++;
        const verdict = serverRefuses(operation, wire(operation, values as never));
        expect(verdict, `the server accepts what the client refused: ${outcome.refused.message}`).toBeDefined();
      });
      // Runs of 150 until both directions were exercised more than 10 times: how many draws a
      // document's shapes leave to each (a path value dropped is no call at all) is not known.
      for (let seed = 34; (sent <= 10 || refused <= 10) && seed < 34 + 10; seed++) {
        await fc.assert(agree, { numRuns: 150, seed });
      }
      expect(sent).toBeGreaterThan(10);
      expect(refused).toBeGreaterThan(10);
    });
  }
});

// The request parts of today's document use no `format`: the components do (`date-time`, `uri`),
// and the client's strict validator of each is compiled as its request validators are. Each is
// compared with the validator of the server's checker (the document's own Ajv) at the same place.
describe("the client's validator of each component checks what the server's checker does, formats included", () => {
  /** Strings near a format's rules, as an implementation of it could read them differently. */
  const NEAR: Record<string, string[]> = {
    'date-time': [
      '2026-02-30T00:00:00Z',
      '2024-02-29T12:00:00.5+01:00',
      '2026-01-01t00:00:00z',
      '2026-12-31T23:59:60Z',
      '2026-01-01T00:00:00',
      '2026-01-01 00:00:00Z',
      '2026-1-01T00:00:00Z',
    ],
    uri: [
      'https://example.com/a b',
      'mailto:agent@example.com',
      '//example.com/x',
      'example.com',
      'urn:isbn:0451450523',
    ],
  };
  const validators = clientValidators as unknown as Record<string, (value: unknown) => boolean>;
  for (const name of Object.keys(document.components?.schemas ?? {})) {
    const client = validators[`validate${name}`];
    if (client === undefined) continue;
    it(`${name}: both accept and refuse the same values`, () => {
      const pointer = `/components/schemas/${name}`;
      const server = schemaValidator(document, pointer);
      const schema = d(at(pointer));
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const known = Object.fromEntries(
        Object.entries(properties).map(([property, node]) => [`/${property}`, NEAR[String(d(node).format)]]),
      );
      // With its formats left out, the arbitrary draws any string where the document asks for one.
      const anyString = (node: unknown) => {
        const { format: _format, ...rest } = d(node);
        return rest;
      };
      const values = fc.oneof(
        drawn(at(pointer)),
        schemaArbitrary(at(pointer), { deref: d, known }),
        schemaArbitrary(at(pointer), { deref: anyString }),
      );
      let refused = 0;
      fc.assert(
        fc.property(values, (value) => {
          const verdict = server(value);
          if (!verdict) refused++;
          expect(client(value), JSON.stringify(server.errors?.[0] ?? 'accepted by the server')).toBe(verdict);
        }),
        { numRuns: 300, seed: 34 },
      );
      expect(refused).toBeGreaterThan(0);
    });
  }
});
