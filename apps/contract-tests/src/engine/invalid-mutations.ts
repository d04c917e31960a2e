// Invalid values made from valid ones, each breaking one keyword of the schema at one place. No
// well-kept library generates invalid data, so this stays a small table of keyword → mutation;
// the caller drops any result the request checker still accepts.
import { type ArbitraryOptions, type Schema, typesOf } from './schema-arbitrary.js';

export interface Mutation {
  /** The keyword broken and where, e.g. `maxLength: /name longer than 255`. */
  rule: string;
  value: unknown;
}

export interface MutationOptions extends Pick<ArbitraryOptions, 'deref'> {
  /**
   * Query parameters travel as text, where a number for a string arrives as a valid string, and a
   * string for an array as an array of one: no such mutation.
   */
  textual?: boolean | undefined;
}

const pointer = (path: string[]) => (path.length === 0 ? '(root)' : `/${path.join('/')}`);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
}

/** A copy of `root` with `value` at `path` (the walk goes through object properties only). */
function setAt(root: unknown, [head, ...rest]: string[], value: unknown): unknown {
  if (head === undefined) return value;
  const object = root as Record<string, unknown>;
  return { ...object, [head]: setAt(object[head], rest, value) };
}

/** The smallest value the schema accepts, for properties a mutation adds. */
export function minimalValue(raw: unknown, deref: MutationOptions['deref']): unknown {
  const schema = deref(raw);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branches = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) return minimalValue(branches[0], deref);
  const type = typesOf(schema)[0] ?? 'object';
  const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
  const formats: Record<string, string> = { 'date-time': '2026-01-01T00:00:00Z', uri: 'https://example.com/' };
  const text = formats[String(schema.format)] ?? 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
  const scalars: Record<string, unknown> = { null: null, boolean: true, integer: min, number: min, string: text };
  if (type in scalars) return scalars[type];
  if (type === 'array') return [];
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  return Object.fromEntries(required.map((name) => [name, minimalValue(properties[name] ?? {}, deref)]));
}

/** A value of a type the schema does not allow, or undefined when every type is allowed. */
function wrongTypeValue(schema: Schema, textual: boolean): unknown {
  const declared = typesOf(schema);
  if (declared.length === 0 || (textual && declared.includes('string'))) return undefined;
  // As text, one value of an array's parameter is read as an array of that one item.
  if (textual && declared.includes('array')) return undefined;
  if (!declared.includes('string')) return 'contract-wrong-type';
  return declared.includes('integer') || declared.includes('number') ? undefined : 12345;
}

/** Branches of a oneOf/anyOf the value may belong to: same type, required properties present. */
function plausibleBranches(branches: unknown[], value: unknown, deref: MutationOptions['deref']): Schema[] {
  const kind = kindOf(value);
  return branches.map(deref).filter((branch) => {
    const types = typesOf(branch);
    if (types.length > 0 && !types.includes(kind) && !(kind === 'integer' && types.includes('number'))) return false;
    return ((branch.required ?? []) as string[]).every((name) => kind === 'object' && name in (value as object));
  });
}

/** Every single-keyword mutation of `value` (valid against `raw`), as whole new values with the rule each breaks. */
export function mutationsOf(raw: unknown, value: unknown, options: MutationOptions): Mutation[] {
  const found: Mutation[] = [];
  walk(raw, value, [], value, options, found);
  // The same rule broken the same way at one place is one mutation.
  return [...new Map(found.map((m) => [`${m.rule}\u0000${JSON.stringify(m.value)}`, m])).values()];
}

function walk(raw: unknown, value: unknown, path: string[], root: unknown, options: MutationOptions, out: Mutation[]) {
  const { deref } = options;
  const schema = deref(raw);
  const at = pointer(path);
  const replace = (rule: string, next: unknown) => out.push({ rule, value: setAt(root, path, next) });

  const wrong = wrongTypeValue(schema, options.textual === true);
  if (wrong !== undefined && path.length > 0) replace(`type: ${at} of the wrong type`, wrong);

  if (Array.isArray(schema.enum)) replace(`enum: ${at} outside the enum`, `${String(schema.enum[0])}-not-in-enum`);
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && schema.minLength > 0)
      replace(`minLength: ${at} shorter than ${schema.minLength}`, 'x'.repeat(schema.minLength - 1));
    if (typeof schema.maxLength === 'number')
      replace(`maxLength: ${at} longer than ${schema.maxLength}`, 'x'.repeat(schema.maxLength + 1));
  }

  if (Array.isArray(schema.oneOf)) {
    const objects = schema.oneOf.map((b) => minimalValue(b, deref)).filter((v) => kindOf(v) === 'object');
    if (objects.length > 1) replace(`oneOf: ${at} matching every branch`, Object.assign({}, ...objects));
    if (kindOf(value) === 'object') replace(`oneOf: ${at} matching no branch`, {});
  }
  const branches = [schema.oneOf ?? [], schema.anyOf ?? []].flat() as unknown[];
  for (const branch of plausibleBranches(branches, value, deref)) walk(branch, value, path, root, options, out);
  for (const member of (schema.allOf ?? []) as unknown[]) walk(member, value, path, root, options, out);

  if (kindOf(value) !== 'object') return;
  const object = value as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const name of ((schema.required ?? []) as string[]).filter((n) => n in object)) {
    const { [name]: _dropped, ...rest } = object;
    replace(`required: ${pointer([...path, name])} missing`, rest);
  }
  if (schema.additionalProperties === false)
    replace(`additionalProperties: ${at} with an unknown property`, { ...object, contract_unknown_property: 'x' });
  for (const [name, child] of Object.entries(object))
    if (name in properties) walk(properties[name], child, [...path, name], root, options, out);

  // if/then: make the `if` hold through its const properties, then break the `then`.
  if (schema.if && schema.then) {
    const condition = deref(schema.if);
    const consequence = deref(schema.then);
    const consts = Object.entries((condition.properties ?? {}) as Record<string, unknown>)
      .map(([name, p]) => [name, deref(p)] as const)
      .filter(([, p]) => 'const' in p);
    if (consts.length === 0) return;
    const when = consts.map(([name, p]) => `${name}=${JSON.stringify(p.const)}`).join(', ');
    let forced: Record<string, unknown> = { ...object };
    for (const [name, p] of consts) forced[name] = p.const;
    for (const name of (consequence.required ?? []) as string[]) {
      const { [name]: _dropped, ...rest } = forced;
      replace(`if/then: ${at} with ${when} requires ${name}`, rest);
    }
    const forbidden = ((deref(consequence.not ?? {}).required ?? []) as string[]).filter((n) => n in properties);
    for (const name of forbidden) {
      forced = { ...forced, [name]: object[name] ?? minimalValue(properties[name], deref) };
      replace(`if/then: ${at} with ${when} forbids ${name}`, forced);
    }
  }
}
