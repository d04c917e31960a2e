import type { ErrorObject } from './validator.js';

/** One thing wrong with a value, as {@link toIssues} reports it. */
export interface ValidationIssue {
  /** Where: the root name followed by the property path, e.g. `body.proxy.id`, `items[2].name`. */
  readonly field: string;
  /** The JSON Schema keyword that failed, e.g. `required`, `oneOf`, `maxLength`, `not`. */
  readonly rule: string;
  /** `field: what is wrong`, e.g. `body.proxy: must provide exactly one of "id" or "name"`. */
  readonly message: string;
}

/** How {@link toIssues} names fields. */
export interface IssueNaming {
  /**
   * Whether nested fields carry the root name (`body.proxy.id`, the default) or start at the
   * first property (`proxy.id`, as a server's error details name fields of the request part
   * they belong to). The value itself is always called by the root name.
   */
  readonly prefixFields?: boolean | undefined;
}

/**
 * Turns Ajv's errors into one issue per real mistake, with one wording per rule, generically by
 * keyword (nothing here knows a field of the document). It reads the errors of the generated
 * standalone validators (first error per branch, no messages, no schemas) and of a full Ajv with
 * `allErrors` and `verbose` alike, and says the same thing for both:
 * - `if` errors only say "the then-branch failed"; the branch's own errors carry the content.
 * - A wrong type explains everything else said about the same value.
 * - A `oneOf`/`anyOf` failure is reduced to what the caller most likely meant: errors inside the
 *   value when a branch got that far, otherwise "exactly one of …" from the properties the
 *   branches asked for or refused, or the types they wanted.
 * - A `not` of a `then`/`else` that fails on a non-object is Ajv evaluating an object's `if/then`
 *   on a value of the wrong type (object keywords pass on anything else): the value had to be an
 *   object. Whether Ajv stops there (the generated validators) or also reports the `type` (full
 *   Ajv), the issue is the same: `must be object`.
 *
 * @param value the value that was validated: messages quote what it holds (a string's length,
 *   the properties of a forbidden combination).
 * @param root what the value is called: `body`, `query`, `browser_telemetry`…
 */
export function toIssues(
  errors: readonly ErrorObject[],
  value: unknown,
  root: string,
  naming: IssueNaming = {},
): ValidationIssue[] {
  const context: Context = { value, root, prefixFields: naming.prefixFields ?? true };
  const seen = new Set<string>();
  return translate(errors, context).filter((issue) => !seen.has(issue.message) && seen.add(issue.message));
}

interface Context {
  readonly value: unknown;
  readonly root: string;
  readonly prefixFields: boolean;
}

function translate(errors: readonly ErrorObject[], context: Context): ValidationIssue[] {
  const kept = errors
    .filter((e) => e.keyword !== 'if')
    .map((e) => (isStrayNot(e, context) ? { ...e, keyword: 'type', params: { type: 'object' } } : e));
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
  const free = kept.filter((e) => !consumed.has(e));
  // With every error reported, a value of the wrong type also fails the rules of the right type
  // (an `enum`, say): the type is the one thing to say about it.
  const mistyped = new Set(free.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  return free.flatMap((error) => {
    if (error.keyword !== 'type' && mistyped.has(error.instancePath)) return [];
    const branch = branches.get(error);
    return branch ? alternatives(error, branch, context) : single(error, context);
  });
}

function alternatives(summary: ErrorObject, branch: ErrorObject[], context: Context): ValidationIssue[] {
  const at = summary.instancePath;
  const field = fieldOf(context, at);
  const deeper = branch.filter((e) => e.instancePath !== at);
  const here = branch.filter((e) => e.instancePath === at && e.keyword !== 'type');
  const structural = here.filter((e) => e.keyword === 'required' || e.keyword === 'additionalProperties');
  const others = here.filter((e) => !structural.includes(e));

  // A branch accepted the value's type and went further: report what it found, not the
  // complaints of the branches that wanted another type or other properties.
  if (deeper.length > 0 || others.length > 0) {
    return translate([...deeper, ...others], context);
  }
  if (structural.length > 0) {
    // A branch that got as far as refusing a property had its required properties; a property
    // refused by every branch that got that far is simply unknown: report only that. Errors are
    // grouped by branch through their schema (`verbose` Ajv); without one (the generated
    // validators, which stop at a branch's first broken rule) each error is one branch's only
    // complaint. `schemaPath` cannot tell branches apart: a branch compiled as its own function
    // (a `$ref`) reports paths relative to its own schema, the same in every branch.
    const refusedByBranch = new Map<unknown, Set<string>>();
    for (const e of structural) {
      if (e.keyword !== 'additionalProperties') continue;
      const key = e.parentSchema ?? e;
      refusedByBranch.set(key, (refusedByBranch.get(key) ?? new Set()).add(String(e.params['additionalProperty'])));
    }
    const [first, ...rest] = refusedByBranch.values();
    const unknown = [...(first ?? [])].filter((name) => rest.every((refused) => refused.has(name)));
    if (unknown.length > 0) return unknown.map((name) => unknownProperty(context, at, name));
    const names = [
      ...new Set(structural.map((e) => String(e.params['missingProperty'] ?? e.params['additionalProperty']))),
    ].sort();
    const list = names.map((n) => JSON.stringify(n)).join(' or ');
    const quantity = summary.keyword === 'oneOf' ? 'exactly one' : 'at least one';
    return [{ field, rule: summary.keyword, message: `${field}: must provide ${quantity} of ${list}` }];
  }
  const types = branch.filter((e) => e.keyword === 'type').flatMap((e) => typeNames(e.params['type']));
  if (types.length > 0) {
    return [{ field, rule: 'type', message: `${field}: must be ${[...new Set(types)].join(' or ')}` }];
  }
  const passing = summary.params['passingSchemas'];
  const detail = Array.isArray(passing) ? ` (matches ${passing.length})` : '';
  return [{ field, rule: summary.keyword, message: `${field}: must match exactly one of the allowed shapes${detail}` }];
}

function single(error: ErrorObject, context: Context): ValidationIssue[] {
  const field = fieldOf(context, error.instancePath);
  const p = error.params as Record<string, unknown>;
  const issue = (at: string, text: string): ValidationIssue[] => [
    { field: at, rule: error.keyword, message: `${at}: ${text}` },
  ];
  switch (error.keyword) {
    case 'required':
      return issue(fieldOf(context, error.instancePath, `${p['missingProperty']}`), 'is required');
    case 'additionalProperties':
      return [unknownProperty(context, error.instancePath, `${p['additionalProperty']}`)];
    case 'minLength':
      return issue(field, p['limit'] === 1 ? 'must not be empty' : `must be at least ${p['limit']} characters`);
    case 'maxLength': {
      const actual = subjectOf(error, context);
      const got = typeof actual === 'string' ? ` (got ${[...actual].length})` : '';
      return issue(field, `must be at most ${p['limit']} characters${got}`);
    }
    case 'enum':
      return issue(
        field,
        `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      );
    case 'const':
      return issue(field, `must be ${JSON.stringify(p['allowedValue'])}`);
    case 'type':
      return issue(field, `must be ${typeNames(p['type']).join(' or ')}`);
    case 'format':
      return issue(field, `must match format "${p['format']}"`);
    case 'pattern':
      return issue(field, `must match pattern ${JSON.stringify(p['pattern'])}`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return issue(field, `must be ${p['comparison']} ${p['limit']}`);
    case 'minItems':
      return issue(field, `must have at least ${p['limit']} items`);
    case 'maxItems':
      return issue(field, `must have at most ${p['limit']} items`);
    case 'uniqueItems':
      return issue(field, `must not repeat an item (items ${p['j']} and ${p['i']} are equal)`);
    case 'not': {
      // The schema forbids this value; name what it holds so the caller sees the combination.
      const actual = subjectOf(error, context);
      if (!isObject(actual)) return issue(field, 'is not an allowed value');
      const held = Object.entries(actual)
        .map(([k, v]) => (v === null || typeof v !== 'object' ? `${k}=${JSON.stringify(v)}` : k))
        .join(', ');
      const conditional = /\/(then|else)\//.test(error.schemaPath) ? ' in this combination' : '';
      return issue(field, `these properties are not allowed${conditional} (${held})`);
    }
    default: {
      // A keyword the document does not use yet: name the rule and what it asked for. Ajv's own
      // `message` is not used, so that a validator with messages and one without (the generated
      // ones) word the rule the same way.
      const asked = Object.entries(p)
        .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
        .join(', ');
      return issue(field, `breaks the "${error.keyword}" rule${asked ? ` (${asked})` : ''}`);
    }
  }
}

function unknownProperty(context: Context, parentPath: string, name: string): ValidationIssue {
  const field = fieldOf(context, parentPath, name);
  return { field, rule: 'additionalProperties', message: `${field}: is not a known property` };
}

/** A `not` of a `then`/`else` on a value that is not an object (see {@link toIssues}). */
function isStrayNot(error: ErrorObject, context: Context): boolean {
  return (
    error.keyword === 'not' && /\/(then|else)\/not$/.test(error.schemaPath) && !isObject(subjectOf(error, context))
  );
}

/** `string` → `['string']`; Ajv reports a type list as an array or as `string,null`. */
function typeNames(type: unknown): string[] {
  return (Array.isArray(type) ? type.map(String) : String(type).split(',')).filter((t) => t !== '');
}

/**
 * `/proxy/id` under root `body` becomes `body.proxy.id`, and `property` one more level; array
 * indexes become `[n]`. Without `prefixFields`, the root names only the value itself: `proxy.id`, `[0].name`.
 */
function fieldOf({ root, prefixFields }: Context, pointer: string, property?: string): string {
  const tokens = [...pointerTokens(pointer), ...(property === undefined ? [] : [property])];
  if (tokens.length === 0) return root;
  let out = prefixFields ? root : '';
  for (const token of tokens) out += /^\d+$/.test(token) ? `[${token}]` : out === '' ? token : `.${token}`;
  return out;
}

/** The value an error is about: looked up in the validated value, else Ajv's `data` (`verbose`). */
function subjectOf(error: ErrorObject, { value }: Context): unknown {
  let current = value;
  for (const token of pointerTokens(error.instancePath)) {
    if (current === null || typeof current !== 'object') return error.data;
    current = (current as Record<string, unknown>)[token];
  }
  return current === undefined ? error.data : current;
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
