// Valid and invalid requests of one operation, as fast-check arbitraries built from its schemas. A
// valid case is one the one request checker (the sandbox's and the mock front's) accepts; each
// invalid one breaks one rule and is one it refuses.
import {
  deref,
  type OpenApiDocument,
  type Operation,
  type OperationParameter,
  readSimpleValue,
  schemaValidator,
} from '@browser-cloud/openapi-document';
import { isRefusal, type RequestChecker } from '@browser-cloud/request-checker';
import fc from 'fast-check';
import { minimalValue, mutationsOf } from './invalid-mutations.js';
import { pathOf, type RequestCase, requestOf } from './request-case.js';
import { type Schema, schemaArbitrary } from './schema-arbitrary.js';

/** Values that exist on the target, preferred over generated ones: ids, log paths. By parameter name. */
export type KnownValues = Partial<Record<'path' | 'query', Readonly<Record<string, readonly string[]>>>>;

export interface InvalidCase extends RequestCase {
  rule: string;
  /** The checker's status; 401 without a token; 400 or 404 for an empty path parameter (unroutable). */
  expectedStatuses: readonly number[];
}

/** The checker's refusal status of a case, or undefined when it keeps every rule of `operation`. */
export function refusalOf(checker: RequestChecker, operation: Operation, c: RequestCase): number | undefined {
  const [pathname = '', search = ''] = pathOf(c).split('?');
  const match = checker.route(operation.method, pathname);
  if (isRefusal(match)) return match.status;
  // A value equal to another template's static segment routes elsewhere: not this operation's request.
  if (match.operation.operationId !== operation.operationId) return 404;
  const headers = Object.fromEntries(Object.entries(c.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const checked = checker.check(match, { search, headers, body: c.body });
  return isRefusal(checked) ? checked.status : undefined;
}

/** The operation the checker routes a case to, or undefined when it routes it to none. */
function routedTo(checker: RequestChecker, c: RequestCase): Operation | undefined {
  const match = checker.route(c.method, pathOf(c).split('?')[0] ?? '');
  return isRefusal(match) ? undefined : match.operation;
}

/** A live target's rule broken by a case plan (README, "Live safety"): the case would address what the run was not given. */
export class LiveSafetyError extends Error {}

/** A value given for a path parameter (a CONTRACT_* variable) that its schema refuses: no case could be built on it. */
export class GivenValueError extends Error {}

/**
 * The requests of `operation`: `valid`, `addressed` (on the `known` resources only) and `invalid`.
 * On a `live` target (README, "Live safety") an operation that is not `safe` addresses only the
 * `known` values of its path parameters and of the query parameters that name something: the
 * resources the user gave or the run created. Generated values then appear only in the requests
 * of safe operations, and in invalid ones whose broken rule is that very path value.
 */
export function caseArbitraries(
  document: OpenApiDocument,
  operation: Operation,
  checker: RequestChecker,
  known: KnownValues = {},
  { live = false }: { live?: boolean | undefined } = {},
) {
  const guarded = live && !operation.safe;
  const none = (where: string, name: string) =>
    new LiveSafetyError(
      `${operation.operationId} changes what it addresses (${operation.method.toUpperCase()}): on a live target its ${where} parameter ${name} takes only a value the run was given or created, and it has none`,
    );
  const derefIn = (node: unknown) => deref(document, node) as Schema;
  /**
   * The given values that `p`'s schema takes; none is an error naming them, not a filter that
   * could never find a valid case (an id given as text for an integer parameter).
   */
  const fitting = (p: OperationParameter, given: readonly string[]) => {
    if (!p.schema) return given;
    const validate = schemaValidator(document, p.schema.pointer);
    const fits = given.filter((v) => validate(readSimpleValue(document, p, encodeURIComponent(v), true)));
    if (fits.length > 0) return fits;
    const rule = validate.errors?.[0]?.message ?? 'does not match its schema';
    throw new GivenValueError(
      `${operation.operationId}: the value given for its path parameter ${p.name} (${given.join(', ')}) is not one it takes: ${rule}`,
    );
  };
  const schemaOf = (p: OperationParameter) => (p.schema?.schema ?? {}) as Schema;
  const inPath = operation.parameters.filter((p) => p.in === 'path');
  const inQuery = operation.query?.parameters ?? [];
  const body = operation.body;
  const bodySchema = body?.schema && derefIn(body.schema.schema);
  // The whole query as one object: the document's own (LogStreamQuery), or one made of the parameters.
  const querySchema: Schema = operation.query?.pointer
    ? derefIn({ $ref: `#${operation.query.pointer}` })
    : {
        type: 'object',
        properties: Object.fromEntries(inQuery.map((p) => [p.name, schemaOf(p)])),
        required: inQuery.filter((p) => p.required).map((p) => p.name),
        additionalProperties: false,
      };
  const keeps = (c: RequestCase) => refusalOf(checker, operation, c) === undefined;

  const byName = (of: readonly OperationParameter[], arb: (p: OperationParameter) => fc.Arbitrary<unknown>) =>
    Object.fromEntries(of.map((p) => [p.name, arb(p)]));
  const pathArb = (onlyKnown: boolean) =>
    fc.record(
      byName(inPath, (p) => {
        const given = known.path?.[p.name];
        if ((onlyKnown || guarded) && given && given.length > 0) return fc.constantFrom(...fitting(p, given));
        if (guarded) throw none('path', p.name);
        // `.` and `..` are resolved away by URL parsers: they never reach the operation.
        const generated = schemaArbitrary(schemaOf(p), { deref: derefIn, known: { '': given } }).map(String);
        return generated.filter((v) => v !== '.' && v !== '..');
      }),
    ) as fc.Arbitrary<Record<string, string>>;
  // A query parameter that names something (a log path) is held to the path's rule; an optional one
  // with no known value is left out.
  const namingQuery = inQuery.filter((p) => guarded && known.query?.[p.name] !== undefined);
  for (const p of namingQuery) if (p.required && known.query?.[p.name]?.length === 0) throw none('query', p.name);
  const sentQuery = inQuery.filter((p) => !namingQuery.includes(p) || known.query?.[p.name]?.length);
  const queryArb = fc.record(
    byName(sentQuery, (p) =>
      namingQuery.includes(p)
        ? fc.constantFrom(...known.query![p.name]!)
        : schemaArbitrary(schemaOf(p), { deref: derefIn, known: { '': known.query?.[p.name] } }),
    ),
    { requiredKeys: sentQuery.filter((p) => p.required).map((p) => p.name) },
  ) as fc.Arbitrary<Record<string, unknown>>;
  const bodyValue = bodySchema ? schemaArbitrary(bodySchema, { deref: derefIn }) : fc.constant(undefined);
  const bodyArb = body?.required || !bodySchema ? bodyValue : fc.option(bodyValue, { nil: undefined });

  const requests = (onlyKnown: boolean) =>
    fc
      .record({ path: pathArb(onlyKnown), query: queryArb, body: bodyArb })
      .map((parts) => requestOf(operation, parts))
      .filter(keeps);

  /** Every one-rule-broken variant of a valid case that the checker refuses. */
  function invalidVariants(c: RequestCase): InvalidCase[] {
    const variants: InvalidCase[] = [];
    const refuse = (rule: string, change: Partial<RequestCase>, also: readonly number[] = []) => {
      const variant = { ...c, ...change };
      const status = refusalOf(checker, operation, variant);
      // A value that routes the request to another operation (a static segment of its path) is that
      // operation's request, which the checker may accept: on a live target, only a read may get it.
      const elsewhere = routedTo(checker, variant);
      if (live && elsewhere && elsewhere.operationId !== operation.operationId && !elsewhere.safe) return;
      if (status !== undefined) variants.push({ ...variant, rule, expectedStatuses: [status, ...also] });
    };
    for (const p of inPath) {
      // The value as the server types it (an integer id is a number), inside an object, so that its
      // own type and bounds are broken as a property's are.
      const text = c.pathParams[p.name] ?? '';
      const typed = readSimpleValue(document, p, encodeURIComponent(text), true);
      const holder = { type: 'object', properties: { [p.name]: schemaOf(p) } };
      for (const m of mutationsOf(holder, { [p.name]: typed }, { deref: derefIn, textual: true })) {
        const value = String((m.value as Record<string, unknown>)[p.name]);
        const pathParams = { ...c.pathParams, [p.name]: value };
        refuse(`path ${m.rule.replace(`/${p.name}`, p.name)}`, { pathParams }, value === '' ? [404] : []);
      }
    }
    if (body && bodySchema) {
      const headers = { ...c.headers, 'Content-Type': body.mediaType };
      for (const m of mutationsOf(bodySchema, c.body === undefined ? {} : JSON.parse(c.body), { deref: derefIn }))
        refuse(`body ${m.rule}`, { body: JSON.stringify(m.value), headers });
      refuse('body: null', { body: 'null', headers });
      const { 'Content-Type': _dropped, ...withoutType } = c.headers;
      refuse('requestBody: the required body is missing', { body: undefined, headers: withoutType });
      const plain = { body: c.body ?? '{}', headers: { ...c.headers, 'Content-Type': 'text/plain' } };
      refuse(`content type: text/plain is not documented (${body.mediaType})`, plain);
    }
    for (const m of inQuery.length > 0 ? mutationsOf(querySchema, c.query, { deref: derefIn, textual: true }) : [])
      refuse(`query ${m.rule}`, { query: m.value as Record<string, unknown> });
    // The checker does not look at credentials: a request without a token is otherwise valid.
    if (operation.secured)
      variants.push({ ...c, withToken: false, rule: 'security: no bearer token', expectedStatuses: [401] });
    return variants;
  }

  // Invalid cases address resources that exist, so that the broken rule is the only reason to refuse.
  const invalid = fc
    .tuple(requests(true), fc.nat())
    .map(([c, pick]) => {
      const variants = invalidVariants(c);
      return variants[pick % Math.max(1, variants.length)];
    })
    .filter((c): c is InvalidCase => c !== undefined);
  /**
   * Every rule broken once, on one plain valid request (the target's resources, the smallest body),
   * so that every run checks each of them, not only those the draw of `invalid` reaches.
   */
  const everyRule = (seed: number) =>
    fc.sample(requests(true), { seed, numRuns: 1 }).flatMap((drawn) => {
      const body = bodySchema && minimalValue(bodySchema, derefIn);
      const plainest = requestOf(operation, { path: drawn.pathParams, query: drawn.query, body });
      return invalidVariants(keeps(plainest) ? plainest : drawn);
    });
  return { valid: requests(false), addressed: requests(true), invalid, everyRule };
}
