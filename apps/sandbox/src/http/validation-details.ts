import type { ErrorDetail, ErrorObject } from '@browser-cloud/api-types';

/** The request part a validation error is about, as Fastify names it. */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

const PART_MESSAGE: Record<RequestPart, string> = {
  body: 'the request body is invalid',
  querystring: 'the query is invalid',
  params: 'the path is invalid',
  headers: 'the request headers are invalid',
};

/** The Error `message` for a validation failure of a request part. */
export function validationMessage(part: RequestPart): string {
  return PART_MESSAGE[part];
}

/**
 * Turns Ajv's errors into `invalid_input` details that name the field (`proxy.id: …`).
 *
 * Ajv reports every branch of a `oneOf`/`anyOf` and the `if` of an `if/then`; read raw they
 * contradict each other ("must be object", "must be null"). So the errors are grouped by the
 * value they are about, and each group says one thing: the value's wrong type, the exactly-one
 * rule of a `oneOf` of closed objects, or the leaf problems.
 */
export function validationDetails(errors: readonly ErrorObject[], part: RequestPart): ErrorDetail[] {
  const relevant = errors.filter((e) => e.keyword !== 'if');
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of relevant) {
    const group = byPath.get(e.instancePath) ?? [];
    group.push(e);
    byPath.set(e.instancePath, group);
  }

  const messages: string[] = [];
  for (const [path, group] of byPath) {
    const compound = group.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
    const leaves = group.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf');
    const field = fieldName(path, part);
    const deeper = relevant.some((e) => e.instancePath.startsWith(`${path}/`));

    // The branch that fits the value's shape failed deeper down: that deeper error is the news.
    if (compound.length > 0 && deeper) continue;

    const types = leaves.filter((e) => e.keyword === 'type').map((e) => String(e.params['type']));
    // A wrong type explains everything else said about the value. A lone "must be null" is
    // only the null alternative of an `anyOf` speaking up when the value is an object.
    if (types.some((t) => t !== 'null') || (types.length > 0 && types.length === leaves.length)) {
      messages.push(`${field}: must be ${[...new Set(types)].join(' or ')}`);
      continue;
    }
    const nonNull = leaves.filter((e) => !(e.keyword === 'type' && e.params['type'] === 'null'));
    leaves.splice(0, leaves.length, ...nonNull);
    const shapeOnly = leaves.length > 0 && leaves.every((e) => e.keyword === 'required' || e.keyword === 'additionalProperties');
    const oneOf = compound.find((e) => e.keyword === 'oneOf');
    if (oneOf !== undefined && shapeOnly) {
      const names = [...new Set(leaves.map((e) => String(e.params['missingProperty'] ?? e.params['additionalProperty'])))].sort();
      messages.push(`${field}: must have exactly one of ${names.join(' or ')}`);
      continue;
    }
    for (const e of leaves) messages.push(leafMessage(e, path, part));
    if (leaves.length === 0) for (const e of compound) messages.push(`${field}: ${e.message ?? 'is invalid'}`);
  }
  return [...new Set(messages)].map((message) => ({ code: 'invalid_input', message }));
}

function leafMessage(e: ErrorObject, path: string, part: RequestPart): string {
  switch (e.keyword) {
    case 'required':
      return `${fieldName(`${path}/${String(e.params['missingProperty'])}`, part)}: is required`;
    case 'additionalProperties':
      return `${fieldName(`${path}/${String(e.params['additionalProperty'])}`, part)}: is not allowed`;
    case 'not': {
      // The document explains its `not` rules in the description beside them (verbose errors).
      const description = (e.parentSchema as { description?: unknown } | undefined)?.description;
      return `${fieldName(path, part)}: ${typeof description === 'string' ? description : (e.message ?? 'is invalid')}`;
    }
    default:
      return `${fieldName(path, part)}: ${e.message ?? 'is invalid'}`;
  }
}

/** `/proxy/id` → `proxy.id`; the root is named after the part. */
function fieldName(instancePath: string, part: RequestPart): string {
  if (instancePath === '') return part === 'querystring' ? 'query' : part === 'params' ? 'path' : part;
  return instancePath
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}
