import type { ErrorObject } from '@browser-cloud/openapi-document';

/** How {@link describeErrors} names the value and its fields. */
export interface ErrorNames {
  /** What the value itself is called (`body`, `browserTelemetry`). @defaultValue `(root)` */
  readonly root?: string;
  /** Whether fields are named under the root (`browserTelemetry.enabled`) or alone (`enabled`). */
  readonly prefixFields?: boolean;
}

/**
 * Ajv's errors as one line per thing wrong, `field: message` (`proxy.id: is required`,
 * `created_at: must match format "date-time"`, `extra: is not allowed`).
 *
 * Ajv reports every branch of a `oneOf`/`anyOf` and the `if` of an `if/then`; read raw they
 * contradict each other ("must be object", "must be null"). So the errors are grouped by the
 * value they are about, and each group says one thing: the value's wrong type, the exactly-one
 * rule of a `oneOf` of closed objects, or the leaf problems. A failed `not` is explained by the
 * description the document gives beside it (verbose errors). An error without a message (the
 * generated validators carry none) still names its rule and parameters.
 */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, names: ErrorNames = {}): string[] {
  const fieldName = fieldNamer(names);
  const relevant = (errors ?? []).filter((e) => e.keyword !== 'if');
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
    const field = fieldName(path);
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
    const shapeOnly =
      nonNull.length > 0 && nonNull.every((e) => e.keyword === 'required' || e.keyword === 'additionalProperties');
    const oneOf = compound.find((e) => e.keyword === 'oneOf');
    if (oneOf !== undefined && shapeOnly) {
      const properties = [
        ...new Set(nonNull.map((e) => String(e.params['missingProperty'] ?? e.params['additionalProperty']))),
      ].sort();
      messages.push(`${field}: must have exactly one of ${properties.join(' or ')}`);
      continue;
    }
    for (const e of nonNull) messages.push(leafMessage(e, path, fieldName));
    if (nonNull.length === 0) for (const e of compound) messages.push(`${field}: ${reason(e)}`);
  }
  return [...new Set(messages)];
}

function leafMessage(e: ErrorObject, path: string, fieldName: (instancePath: string) => string): string {
  switch (e.keyword) {
    // Name the property itself rather than the object that lacks or has it.
    case 'required':
      return `${fieldName(`${path}/${String(e.params['missingProperty'])}`)}: is required`;
    case 'additionalProperties':
      return `${fieldName(`${path}/${String(e.params['additionalProperty'])}`)}: is not allowed`;
    case 'not': {
      const description = (e.parentSchema as { description?: unknown } | undefined)?.description;
      return `${fieldName(path)}: ${typeof description === 'string' ? description : reason(e)}`;
    }
    default:
      return `${fieldName(path)}: ${reason(e)}`;
  }
}

function reason(e: ErrorObject): string {
  return e.message ?? `violates ${e.keyword} ${JSON.stringify(e.params)}`;
}

/** `/browser/console/enabled` → `browser.console.enabled`, under the root when `prefixFields`. */
function fieldNamer({ root = '(root)', prefixFields = false }: ErrorNames): (instancePath: string) => string {
  return (instancePath) => {
    if (instancePath === '') return root;
    const field = instancePath
      .slice(1)
      .split('/')
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
    return prefixFields ? `${root}.${field}` : field;
  };
}
