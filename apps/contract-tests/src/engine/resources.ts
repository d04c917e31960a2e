// The resources of the target that cases may use, each given by an environment variable whose
// name follows from the document: a case that needs one names it, and does not run without it.
import {
  constantCase,
  type OpenApiDocument,
  type Operation,
  type OperationParameter,
  objectShape,
  type Resource,
  type ResourceModel,
  resources as resourceModel,
  singular,
} from '@browser-cloud/openapi-document';
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

/** The document's resource model, built once per document. */
const models = new WeakMap<OpenApiDocument, ResourceModel>();
function modelOf(document: OpenApiDocument): ResourceModel {
  const model = models.get(document) ?? resourceModel(document);
  models.set(document, model);
  return model;
}

/** The id field of what `create` makes, when its answer holds it (its resource's id field, through allOf members). */
function answeredIdField(document: OpenApiDocument, create: Operation, resource: Resource): string | undefined {
  const answer = create.success?.schema;
  if (!answer) return undefined;
  const { properties } = objectShape(document, answer.schema, answer.pointer);
  return Object.hasOwn(properties, resource.idField) ? resource.idField : undefined;
}

/**
 * The operation that creates what `operation` (a DELETE of an item) removes, by the document's
 * resource model: the create of its resource, when its answer holds the item's id.
 */
export function creatorOf(document: OpenApiDocument, operation: Operation): Operation | undefined {
  const role = modelOf(document).roleOf(operation);
  const create = role?.action === 'delete' ? role.resource.crud.create : undefined;
  return create && answeredIdField(document, create, role!.resource) ? create : undefined;
}

/** The DELETE that removes what `operation` creates, whose answer holds the item's id. */
export function deleterOf(document: OpenApiDocument, operation: Operation): Operation | undefined {
  const role = modelOf(document).roleOf(operation);
  const remove = role?.action === 'create' ? role.resource.crud.delete : undefined;
  return remove && answeredIdField(document, operation, role!.resource) ? remove : undefined;
}

/** The id of the item `operation` (a create) made, read from its answer's body by its resource's id field. */
export function createdId(document: OpenApiDocument, operation: Operation, json: unknown): string | undefined {
  const role = modelOf(document).roleOf(operation);
  if (role?.action !== 'create' || typeof json !== 'object' || json === null) return undefined;
  const id = (json as Record<string, unknown>)[role.resource.idField];
  if (typeof id === 'number' && Number.isInteger(id)) return String(id);
  return typeof id === 'string' ? id : undefined;
}

/** The GET of the path `operation` addresses, which reads the resource it changes (a PATCH's, a PUT's). */
export function readerOf(operations: Iterable<Operation>, operation: Operation): Operation | undefined {
  return [...operations].find((o) => o.method === 'get' && o.safe && o.path === operation.path && !o.streaming);
}
