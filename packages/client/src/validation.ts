import type { ErrorObject, Validator } from '@browser-cloud/api-types';
import { ValidationError, type ValidationIssue } from './errors.js';

/**
 * Runs one of the validators generated from the OpenAPI document and throws a
 * {@link ValidationError} when the value breaks the document's rules. `root` names the value in
 * messages: `body`, `query`, `path` or `browser_telemetry`.
 */
export function check<T>(validate: Validator<T>, value: unknown, root: string): asserts value is T {
  if (!validate(value)) throw new ValidationError(toIssues(validate.errors ?? [], value, root));
}

/**
 * Turns Ajv errors into one issue per real mistake, generically by keyword (nothing here knows
 * a field of the document):
 * - `if` errors only say "the then-branch failed"; the branch's own errors carry the content.
 * - A `oneOf`/`anyOf` failure is reduced to what the caller most likely meant: errors inside
 *   the value when a branch got that far, otherwise "exactly one of …" from the properties the
 *   branches asked for or refused.
 * - A `not` next to a `type` failure on a non-object is Ajv evaluating `if/then` on a value of
 *   the wrong type: noise.
 */
export function toIssues(errors: readonly ErrorObject[], value: unknown, root: string): ValidationIssue[] {
  const kept = errors.filter(
    (e) =>
      e.keyword !== 'if' &&
      !(
        e.keyword === 'not' &&
        !isObject(valueAt(value, e.instancePath)) &&
        errors.some((t) => t.keyword === 'type' && t.instancePath === e.instancePath)
      ),
  );
  // Ajv pushes a oneOf/anyOf summary right after its branches' errors: the branch errors are
  // the contiguous run before it, at or under its path. A nested summary is swept into its
  // parent's run and handled again when the parent's branch errors are translated.
  const branches = new Map<ErrorObject, ErrorObject[]>();
  const consumed = new Set<ErrorObject>();
  for (const [index, error] of kept.entries()) {
    if (error.keyword !== 'oneOf' && error.keyword !== 'anyOf') continue;
    let start = index;
    while (start > 0 && isUnder(kept[start - 1]!.instancePath, error.instancePath)) start--;
    const run = kept.slice(start, index);
    for (const e of run) consumed.add(e);
    branches.set(error, run);
  }
  const issues: ValidationIssue[] = [];
  for (const error of kept) {
    if (consumed.has(error)) continue;
    const branch = branches.get(error);
    issues.push(...(branch ? alternatives(error, branch, value, root) : single(error, value, root)));
  }
  const seen = new Set<string>();
  return issues.filter((issue) => !seen.has(issue.message) && seen.add(issue.message));
}

function alternatives(summary: ErrorObject, branch: ErrorObject[], value: unknown, root: string): ValidationIssue[] {
  const at = summary.instancePath;
  const field = fieldOf(root, at);
  const deeper = branch.filter((e) => e.instancePath !== at);
  const here = branch.filter((e) => e.instancePath === at && e.keyword !== 'type');
  const structural = here.filter((e) => e.keyword === 'required' || e.keyword === 'additionalProperties');
  const others = here.filter((e) => !structural.includes(e));

  // A branch accepted the value's type and went further: report what it found, not the
  // complaints of the branches that wanted another type or other properties.
  if (deeper.length > 0 || others.length > 0) {
    return toIssues([...deeper, ...others], value, root);
  }
  if (structural.length > 0) {
    // A branch that got as far as refusing a property had its required properties; a property
    // refused by every branch that got that far is simply unknown: report only that. The
    // generated validators stop at a branch's first broken rule, so here (every error at the
    // summary's path, no nested alternatives) each error is one branch's only complaint. Branches
    // are told apart by that, not by `schemaPath`: a branch compiled as its own function (a
    // `$ref`) reports paths relative to its own schema, the same in every branch.
    const refusedBy = new Map<string, number>();
    let reached = 0;
    for (const e of structural) {
      if (e.keyword !== 'additionalProperties') continue;
      const name = String(e.params['additionalProperty']);
      reached++;
      refusedBy.set(name, (refusedBy.get(name) ?? 0) + 1);
    }
    const unknown = [...refusedBy].filter(([, by]) => by === reached);
    if (unknown.length > 0) {
      return unknown.map(([name]) => unknownProperty(field, name));
    }
    const names = [
      ...new Set(structural.map((e) => String(e.params['missingProperty'] ?? e.params['additionalProperty']))),
    ].sort();
    const list = names.map((n) => JSON.stringify(n)).join(' or ');
    const quantity = summary.keyword === 'oneOf' ? 'exactly one' : 'at least one';
    return [{ field, rule: summary.keyword, message: `${field}: must provide ${quantity} of ${list}` }];
  }
  const types = branch.filter((e) => e.keyword === 'type').map((e) => String(e.params['type']));
  if (types.length > 0) {
    return [{ field, rule: 'type', message: `${field}: must be ${[...new Set(types)].join(' or ')}` }];
  }
  const passing = summary.params['passingSchemas'];
  const detail = Array.isArray(passing) ? ` (matches ${passing.length})` : '';
  return [{ field, rule: summary.keyword, message: `${field}: must match exactly one of the allowed shapes${detail}` }];
}

function single(error: ErrorObject, value: unknown, root: string): ValidationIssue[] {
  const field = fieldOf(root, error.instancePath);
  const p = error.params as Record<string, unknown>;
  const issue = (at: string, text: string): ValidationIssue[] => [
    { field: at, rule: error.keyword, message: `${at}: ${text}` },
  ];
  switch (error.keyword) {
    case 'required':
      return issue(`${field}.${String(p['missingProperty'])}`, 'is required');
    case 'additionalProperties':
      return [unknownProperty(field, String(p['additionalProperty']))];
    case 'minLength':
      return issue(field, p['limit'] === 1 ? 'must not be empty' : `must be at least ${String(p['limit'])} characters`);
    case 'maxLength': {
      const actual = valueAt(value, error.instancePath);
      const got = typeof actual === 'string' ? ` (got ${[...actual].length})` : '';
      return issue(field, `must be at most ${String(p['limit'])} characters${got}`);
    }
    case 'enum':
      return issue(
        field,
        `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      );
    case 'const':
      return issue(field, `must be ${JSON.stringify(p['allowedValue'])}`);
    case 'type':
      return issue(field, `must be ${String(p['type'])}`);
    case 'format':
      return issue(field, `must be a valid ${String(p['format'])}`);
    case 'not': {
      // The schema forbids this value; name what it holds so the caller sees the combination.
      const actual = valueAt(value, error.instancePath);
      if (!isObject(actual)) return issue(field, 'is not an allowed value');
      const held = Object.entries(actual)
        .map(([k, v]) => (v === null || typeof v !== 'object' ? `${k}=${JSON.stringify(v)}` : k))
        .join(', ');
      const conditional = /\/(then|else)\//.test(error.schemaPath) ? ' in this combination' : '';
      return issue(field, `these properties are not allowed${conditional} (${held})`);
    }
    default: {
      // A keyword the document does not use yet. The generated validators carry no `message`:
      // name the rule and what it asked for.
      const asked = Object.entries(p)
        .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
        .join(', ');
      return issue(field, error.message ?? `breaks the "${error.keyword}" rule${asked ? ` (${asked})` : ''}`);
    }
  }
}

function unknownProperty(parent: string, name: string): ValidationIssue {
  const field = `${parent}.${name}`;
  return { field, rule: 'additionalProperties', message: `${field}: is not a known property` };
}

/** `/proxy/id` under root `body` becomes `body.proxy.id`; array indexes become `[n]`. */
function fieldOf(root: string, pointer: string): string {
  let out = root;
  for (const token of pointerTokens(pointer)) out += /^\d+$/.test(token) ? `[${token}]` : `.${token}`;
  return out;
}

function valueAt(value: unknown, pointer: string): unknown {
  let current = value;
  for (const token of pointerTokens(pointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

function pointerTokens(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function isUnder(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
