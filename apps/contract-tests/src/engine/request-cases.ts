// Valid and invalid requests of one operation, as fast-check arbitraries built from the
// operation's own schemas. Valid ones are re-checked with Ajv before they count as valid; each
// invalid one breaks one rule, and is re-checked with Ajv to be really invalid before it is sent.
import fc from 'fast-check';
import type { DocumentValidator } from '../harness/document-validator.js';
import { mutationsOf } from './invalid-mutations.js';
import type { JsonSchema, OperationModel } from './operations.js';
import type { RequestCase } from './request-case.js';
import { schemaArbitrary } from './schema-arbitrary.js';

/** Values that exist on the target, preferred over generated ones: ids, log paths, names. */
export interface KnownValues {
  path?: Record<string, readonly string[]>;
  query?: Record<string, readonly string[]>;
  /** By instance path inside the body (`/name`). */
  body?: Record<string, readonly unknown[]>;
}

export interface InvalidCase extends RequestCase {
  rule: string;
  /**
   * The statuses that refuse it: 401 for a request without a token, 400 for every other broken
   * rule, and 400 or 404 for an empty path parameter (the URL no longer matches the template, so a
   * server may not route it to the operation at all).
   */
  expectedStatuses: readonly number[];
}

export interface CaseArbitraries {
  valid: fc.Arbitrary<RequestCase>;
  invalid: fc.Arbitrary<InvalidCase>;
}

const WRONG_CONTENT_TYPE = 'text/plain';

export function caseArbitraries(
  operation: OperationModel,
  validator: DocumentValidator,
  deref: (schema: unknown) => JsonSchema,
  known: KnownValues = {},
): CaseArbitraries {
  const inPath = operation.parameters.filter((p) => p.in === 'path');
  const inQuery = operation.parameters.filter((p) => p.in === 'query');
  const bodyPointer = operation.body?.schemaPointer;
  const bodySchema = bodyPointer ? deref({ $ref: bodyPointer }) : undefined;

  // The whole query as one object: the document's own (LogStreamQuery), or one made of the parameters.
  const querySchema: JsonSchema = operation.querySchemaPointer
    ? deref({ $ref: operation.querySchemaPointer })
    : {
        type: 'object',
        properties: Object.fromEntries(inQuery.map((p) => [p.name, p.schema])),
        required: inQuery.filter((p) => p.required).map((p) => p.name),
      };
  const queryProblems = (query: Record<string, unknown>): string[] => {
    if (operation.querySchemaPointer) return validator.validateAt(operation.querySchemaPointer, query);
    return inQuery.flatMap((p) =>
      p.name in query ? validator.validateAt(p.schemaPointer, query[p.name]) : p.required ? [`${p.name} missing`] : [],
    );
  };
  const bodyProblems = (body: unknown) => (bodyPointer ? validator.validateAt(bodyPointer, body) : []);

  const accept = operation.successMediaTypes.join(', ') || undefined;
  const pathArb = (onlyKnown: boolean) =>
    fc.record(
      Object.fromEntries(
        inPath.map((p) => {
          const given = known.path?.[p.name];
          if (onlyKnown && given && given.length > 0) return [p.name, fc.constantFrom(...given)];
          const generated = schemaArbitrary(p.schema, { deref, known: { '': given } })
            .map(String)
            // `.` and `..` are resolved away by URL parsers: they never reach the operation.
            .filter((v) => v !== '.' && v !== '..');
          return [p.name, generated];
        }),
      ),
    ) as fc.Arbitrary<Record<string, string>>;
  const queryArb = (
    inQuery.length === 0
      ? fc.constant({})
      : fc.record(
          Object.fromEntries(
            inQuery.map((p) => [p.name, schemaArbitrary(p.schema, { deref, known: { '': known.query?.[p.name] } })]),
          ),
          { requiredKeys: inQuery.filter((p) => p.required).map((p) => p.name) },
        )
  ).filter((q) => queryProblems(q).length === 0) as fc.Arbitrary<Record<string, unknown>>;
  const bodyValueArb = bodySchema
    ? schemaArbitrary(bodySchema, { deref, known: known.body }).filter((b) => bodyProblems(b).length === 0)
    : undefined;
  const bodyArb: fc.Arbitrary<unknown> = !bodyValueArb
    ? fc.constant(undefined)
    : operation.body?.required
      ? bodyValueArb
      : fc.option(bodyValueArb, { nil: undefined });

  // Invalid cases address resources that exist, so that the broken rule is the only reason to refuse.
  const requests = (onlyKnownIds: boolean) =>
    fc.record({ pathParams: pathArb(onlyKnownIds), query: queryArb, body: bodyArb }).map(
      ({ pathParams, query, body }): RequestCase => ({
        operationId: operation.operationId,
        method: operation.method,
        pathTemplate: operation.path,
        pathParams,
        query,
        headers: {
          ...(accept ? { Accept: accept } : {}),
          ...(body !== undefined && operation.body ? { 'Content-Type': operation.body.mediaType } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        withToken: true,
      }),
    );
  const valid = requests(false);

  /** Every one-rule-broken variant of a valid case that Ajv confirms is invalid. */
  function invalidVariants(c: RequestCase): InvalidCase[] {
    const variants: InvalidCase[] = [];
    const refuse = (rule: string, change: Partial<RequestCase>, expectedStatuses: readonly number[] = [400]) =>
      variants.push({ ...c, ...change, rule, expectedStatuses });
    for (const p of inPath) {
      const value = c.pathParams[p.name] ?? '';
      for (const m of mutationsOf(p.schema, value, { deref, textual: true })) {
        const broken = String(m.value);
        if (validator.validateAt(p.schemaPointer, broken).length === 0) continue;
        const rule = `path ${m.rule.replace('(root)', p.name)}`;
        refuse(rule, { pathParams: { ...c.pathParams, [p.name]: broken } }, broken === '' ? [400, 404] : [400]);
      }
    }
    if (operation.body && bodySchema) {
      const jsonHeaders = { ...c.headers, 'Content-Type': operation.body.mediaType };
      const value = c.body === undefined ? {} : JSON.parse(c.body);
      for (const m of mutationsOf(bodySchema, value, { deref })) {
        if (bodyProblems(m.value).length > 0)
          refuse(`body ${m.rule}`, { body: JSON.stringify(m.value), headers: jsonHeaders });
      }
      if (bodyProblems(null).length > 0) refuse('body: null', { body: 'null', headers: jsonHeaders });
      if (operation.body.required) {
        const { 'Content-Type': _dropped, ...withoutType } = c.headers;
        refuse('requestBody: the required body is missing', { body: undefined, headers: withoutType });
      }
      refuse(`content type: ${WRONG_CONTENT_TYPE} is not documented (${operation.body.mediaType})`, {
        body: c.body ?? '{}',
        headers: { ...c.headers, 'Content-Type': WRONG_CONTENT_TYPE },
      });
    }
    if (inQuery.length > 0) {
      for (const m of mutationsOf(querySchema, c.query, { deref, textual: true })) {
        const query = m.value as Record<string, unknown>;
        if (queryProblems(query).length > 0) refuse(`query ${m.rule}`, { query });
      }
    }
    if (operation.secured) refuse('security: no bearer token', { withToken: false }, [401]);
    return variants;
  }

  const invalid = fc
    .tuple(requests(true), fc.nat())
    .map(([c, pick]) => {
      const variants = invalidVariants(c);
      return variants[pick % Math.max(1, variants.length)];
    })
    .filter((c): c is InvalidCase => c !== undefined);
  return { valid, invalid };
}
