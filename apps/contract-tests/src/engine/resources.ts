// The resources of the target that cases may use, each given by an environment variable whose
// name follows from the document: a case that needs one names it, and does not run without it.
import { constantCase, type Operation, type OperationParameter, singular } from '@browser-cloud/openapi-document';
import type { KnownValues } from './request-cases.js';

/** Variable → value, from the environment (CONTRACT_PROFILE_ID → `prof_…`). */
export type Resources = Readonly<Record<string, string>>;

const noun = (word: string) => constantCase(singular(word));

/** A string parameter whose value names something on the target (a log path), not one the schema enumerates. */
function namesSomething(parameter: OperationParameter): boolean {
  const schema = (parameter.schema?.schema ?? {}) as Record<string, unknown>;
  return schema.type === 'string' && !('enum' in schema) && !('const' in schema) && !('format' in schema);
}

/** The variable of each path parameter, and of each query parameter that names something (README). */
export function resourceVariables(operation: Operation) {
  const path: Record<string, string> = {};
  const last = [...operation.path.matchAll(/\{([^}]+)\}/g)].at(-1)?.[1];
  for (const p of operation.parameters.filter((p) => p.in === 'path')) {
    const deletable = operation.method === 'delete' && p.name === last ? 'DELETABLE_' : '';
    path[p.name] = p.collection ? `CONTRACT_${deletable}${noun(p.collection)}_ID` : `CONTRACT_${constantCase(p.name)}`;
  }
  // The noun after the last path parameter, else the path's last noun.
  const segments = operation.path.split('/').filter((s) => s !== '');
  const after = segments.slice(segments.findLastIndex((s) => s.startsWith('{')) + 1).filter((s) => !s.startsWith('{'));
  const what = noun(after[0] ?? segments.filter((s) => !s.startsWith('{')).at(-1) ?? 'query');
  const query: Record<string, string> = {};
  for (const p of (operation.query?.parameters ?? []).filter(namesSomething))
    query[p.name] = `CONTRACT_${what}_${constantCase(p.name)}`;
  return { path, query };
}

/** The values of the target's resources for `operation`'s parameters, for the cases to prefer. */
export function knownValues(operation: Operation, resources: Resources): KnownValues {
  const { path, query } = resourceVariables(operation);
  const values = (variables: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(variables).map(([name, variable]) => [name, resources[variable] ? [resources[variable]] : []]),
    );
  return { path: values(path), query: values(query) };
}

/** The resources the environment gives: every non-empty CONTRACT_* variable. */
export function resourcesFrom(env: Readonly<Record<string, string | undefined>>): Resources {
  const given = Object.entries(env).map(([name, value]) => [name, value?.trim()]);
  return Object.fromEntries(given.filter(([name, value]) => name!.startsWith('CONTRACT_') && value));
}

/**
 * Each variable of `operations` set to its parameter's example: what the sandbox targets add under
 * the fixture's ids, since the sandbox holds the example items of a resource its fixture does not
 * fill, and answers an operation on a resource it does not keep with its example, whatever the id.
 */
export function exampleResources(operations: Iterable<Operation>): Resources {
  const resources: Record<string, string> = {};
  for (const operation of operations) {
    const { path, query } = resourceVariables(operation);
    for (const { name, in: where, parameter } of operation.parameters) {
      const variable = (where === 'path' ? path : query)[name];
      const [first] = Object.values(parameter.examples ?? {}) as { value?: unknown }[];
      const example = parameter.example ?? first?.value;
      if (variable && example !== undefined) resources[variable] ??= String(example);
    }
  }
  return resources;
}

/** Why a case that needs `variables` cannot run, or undefined when every one is given. */
export function missingReason(resources: Resources, variables: readonly string[]): string | undefined {
  const missing = variables.filter((variable) => resources[variable] === undefined);
  return missing.length > 0 ? `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set` : undefined;
}

const collectionOf = (path: string) => path.replace(/\/\{[^}]+\}$/, '');
const answersId = (o: Operation) => (o.success?.schema?.schema as { properties?: { id?: unknown } })?.properties?.id;

/** The operation that creates what `operation` (a DELETE) removes: a POST on its collection answering an `id`. */
export function creatorOf(operations: Iterable<Operation>, operation: Operation): Operation | undefined {
  const collection = collectionOf(operation.path);
  if (operation.method !== 'delete' || collection === operation.path) return undefined;
  return [...operations].find((o) => o.method === 'post' && o.path === collection && answersId(o) !== undefined);
}

/**
 * The DELETE that removes what `operation` creates: `operation` is a POST on a collection answering
 * an `id`, and the document has a DELETE on that collection's item path.
 */
export function deleterOf(operations: Iterable<Operation>, operation: Operation): Operation | undefined {
  const all = [...operations];
  const deleter = all.find((o) => o.method === 'delete' && collectionOf(o.path) === operation.path);
  return deleter && creatorOf(all, deleter)?.operationId === operation.operationId ? deleter : undefined;
}

/** The GET of the path `operation` addresses, which reads the resource it changes (a PATCH's, a PUT's). */
export function readerOf(operations: Iterable<Operation>, operation: Operation): Operation | undefined {
  return [...operations].find((o) => o.method === 'get' && o.safe && o.path === operation.path && !o.streaming);
}
