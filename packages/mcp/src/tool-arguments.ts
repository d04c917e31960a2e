import { toIssues } from '@browser-cloud/api-types';
import { ValidationError, type ValidationIssue } from '@browser-cloud/client';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ArgumentLocation, ToolDefinition } from './tool-definition.js';

/** A tool's arguments sorted by where they go. */
export type SortedArguments = Record<ArgumentLocation, Record<string, unknown>>;

/** Sets `name` as an own property, whatever it is named: `__proto__` is an argument like another. */
const define = (object: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });

const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: true });
/**
 * By owner (a tool), the validator of its arguments: of a generated tool, its own arguments
 * (`max_events`…) as one object schema, whose defaults `useDefaults` fills in.
 */
const validators = new WeakMap<object, ValidateFunction>();

/**
 * Sorts a tool call's arguments into path, query, body and the tool's own, checking what the
 * client cannot see (known names, the tool's own arguments): the client checks the rest.
 * @throws ValidationError naming the argument and the rule.
 */
export function sortArguments(definition: ToolDefinition, args: Record<string, unknown> = {}): SortedArguments {
  const sorted: SortedArguments = { path: {}, query: {}, header: {}, body: {}, tool: {} };
  const unknown: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(args)) {
    // Own properties only: `toString` or `__proto__` must not find Object.prototype's.
    const location = Object.hasOwn(definition.locations, name) ? definition.locations[name] : undefined;
    if (location === undefined) {
      const message = `${name}: is not an argument of ${definition.name}`;
      unknown.push({ field: name, rule: 'additionalProperties', message });
    } else if (value !== undefined) {
      define(sorted[location], name, value);
    }
  }
  if (unknown.length > 0) throw new ValidationError(unknown);
  const own = Object.keys(definition.locations).filter((name) => definition.locations[name] === 'tool');
  const properties = Object.fromEntries(own.map((name) => [name, definition.inputSchema.properties[name]]));
  checkArguments(definition, { type: 'object', properties }, sorted.tool);
  return sorted;
}

/**
 * Checks `args` against `schema`, compiled once for `owner`, filling in its defaults.
 * @throws ValidationError naming each argument that breaks a rule, in the repo's one wording of
 *   each rule, as the client and the sandbox say it.
 */
export function checkArguments(owner: object, schema: object, args: Record<string, unknown>): void {
  let validate = validators.get(owner);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(owner, validate);
  }
  if (!validate(args)) {
    throw new ValidationError(toIssues(validate.errors ?? [], args, 'arguments', { prefixFields: false }));
  }
}
