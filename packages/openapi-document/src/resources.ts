// The resources of the document, read from its paths: a collection path (`/profiles`) and its
// item path (`/profiles/{id_or_name}`) make one, and what each operation does to it follows from
// its method and where its path sits. The sandbox stores them; any layer may read them.
import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import { appendPointer, getAt } from './json-pointer.js';
import { objectShape } from './object-shape.js';
import { type Operation, operations, type SchemaAt } from './operations.js';
import { deref, resolveNode } from './resolve-ref.js';

/** What a method does on a collection path (`create`, `list`) or an item path (the others). */
export type CrudAction = 'create' | 'list' | 'read' | 'merge' | 'replace' | 'delete';

/** The query parameters of a list that page it, by the names APIs give them. */
export interface ListPaging {
  /** The page size (`limit`, `page_size`, `per_page`). */
  readonly limit: string | undefined;
  /** How many items to skip (`offset`, `skip`). */
  readonly offset: string | undefined;
  /** The id of the item after which the page starts (`cursor`, `starting_after`, `after`, `page_token`). */
  readonly cursor: string | undefined;
}

export interface ResourceList {
  readonly operation: Operation;
  /** The property of the answer's object that holds the page, or undefined for an answer that is the array itself. */
  readonly itemsProperty: string | undefined;
  readonly paging: ListPaging;
  /** Query parameters named as a property of the item: the list keeps the items whose property equals the value. */
  readonly filters: readonly string[];
  /** Query parameters that neither page nor filter. */
  readonly others: readonly string[];
}

export interface Resource {
  /** The collection path, every path parameter written `{}`: `/profiles`, `/browsers/{}/logs`. */
  readonly key: string;
  /** The collection's segment: `profiles`. */
  readonly collection: string;
  /** How many path parameters come before the item's own (a nested resource lives under its parent). */
  readonly depth: number;
  /** The schema of one item: what a read, an update or a create answers, else the items of a list. */
  readonly schema: SchemaAt | undefined;
  /** The item in words: its schema's title in lower case (`profile`), else the collection's. */
  readonly noun: string;
  /** The property that is its id: `id`, else the `…id` property the item path's examples point to. */
  readonly idField: string;
  /** The property that names it (`name`), by which an item path may address it too. */
  readonly nameField: string | undefined;
  /** The properties marked `x-unique: true`: no two items of a project share a value (409). */
  readonly unique: readonly string[];
  /** The prefix its examples' ids show (`prof_` of `prof_01HZY…`), else empty. */
  readonly idPrefix: string;
  /** The items its schema's and its operations' answers show as examples. */
  readonly examples: readonly Record<string, unknown>[];
  /** The operations that create, list, read, merge, replace and delete it. */
  readonly crud: Readonly<Partial<Record<CrudAction, Operation>>>;
  readonly list: ResourceList | undefined;
  /** Every other operation under one of its items (`POST /auth/connections/{id}/login`). */
  readonly actions: readonly Operation[];
}

/** What an operation does: CRUD on a resource, or another action under one of its items. */
export interface OperationRole {
  readonly resource: Resource;
  readonly action: CrudAction | 'action';
}

export interface ResourceModel {
  readonly resources: readonly Resource[];
  /** The role of an operation of the document; undefined for one under no resource (`/health`). */
  roleOf(operation: Operation): OperationRole | undefined;
}

const ITEM_ACTIONS: Readonly<Record<string, CrudAction>> = {
  get: 'read',
  patch: 'merge',
  put: 'replace',
  delete: 'delete',
};
const LIMIT = ['limit', 'page_size', 'per_page', 'max_results'];
const OFFSET = ['offset', 'skip'];
const CURSOR = ['cursor', 'starting_after', 'after', 'page_token'];

const isParameter = (segment: string) => segment.startsWith('{');
const keyOf = (segments: readonly string[]) => `/${segments.map((s) => (isParameter(s) ? '{}' : s)).join('/')}`;

/**
 * The resources of `document`, each from the collection paths its operations' paths name.
 * @throws OpenApiDocumentError for an `x-unique` that is not `true` or `false`.
 */
export function resources(document: OpenApiDocument): ResourceModel {
  const all = [...operations(document)];
  // Every static segment followed by a path parameter names a collection: its key → its segment and depth.
  const found = new Map<string, { collection: string; depth: number }>();
  for (const { path } of all) {
    const segments = path.split('/').filter(Boolean);
    segments.forEach((segment, i) => {
      if (i > 0 && isParameter(segment) && !isParameter(segments[i - 1]!)) {
        const key = keyOf(segments.slice(0, i));
        found.set(key, { collection: segments[i - 1]!, depth: segments.slice(0, i).filter(isParameter).length });
      }
    });
  }
  const roles = new Map<string, { key: string; action: CrudAction | 'action' }>();
  for (const operation of all) {
    const segments = operation.path.split('/').filter(Boolean);
    const last = segments.length - 1;
    const whole = keyOf(segments);
    let role: { key: string; action: CrudAction | 'action' } | undefined;
    if (found.has(whole) && (operation.method === 'post' || operation.method === 'get')) {
      role = { key: whole, action: operation.method === 'post' ? 'create' : 'list' };
    } else {
      // The deepest collection of the path whose item the operation is on or under.
      for (let i = last; i > 0 && role === undefined; i--) {
        const key = keyOf(segments.slice(0, i));
        if (!isParameter(segments[i]!) || !found.has(key)) continue;
        const crud = i === last ? ITEM_ACTIONS[operation.method] : undefined;
        role = { key, action: crud ?? 'action' };
      }
    }
    if (role) roles.set(operation.pointer, role);
  }
  const list = [...found].map(([key, { collection, depth }]) => {
    const mine = all.filter((operation) => roles.get(operation.pointer)?.key === key);
    const crud: Partial<Record<CrudAction, Operation>> = {};
    for (const operation of mine) {
      const { action } = roles.get(operation.pointer)!;
      if (action !== 'action') crud[action] ??= operation;
    }
    const actions = mine.filter((operation) => roles.get(operation.pointer)?.action === 'action');
    return describe(document, key, collection, depth, crud, actions);
  });
  const byKey = new Map(list.map((resource) => [resource.key, resource]));
  return {
    resources: list,
    roleOf(operation) {
      const role = roles.get(operation.pointer);
      return role && { resource: byKey.get(role.key)!, action: role.action };
    },
  };
}

type Properties = Record<string, Record<string, unknown>>;

function describe(
  document: OpenApiDocument,
  key: string,
  collection: string,
  depth: number,
  crud: Partial<Record<CrudAction, Operation>>,
  actions: readonly Operation[],
): Resource {
  const listed = crud.list && listOf(document, crud.list);
  const answered = (['read', 'merge', 'replace', 'create'] as const)
    .map((action) => crud[action] && jsonAnswer(document, crud[action]))
    .find((schema) => schema !== undefined);
  const schema = answered ?? listed?.items;
  const shape = schema ? objectShape(document, schema.schema, schema.pointer) : { properties: {}, required: [] };
  const properties: Properties = Object.fromEntries(
    Object.entries(shape.properties).map(([name, property]) => [name, property.schema]),
  );
  const unique = Object.entries(shape.properties).flatMap(([name, { schema: property, pointer: at }]) => {
    const flag = property['x-unique'];
    if (flag !== undefined && typeof flag !== 'boolean') {
      throw new OpenApiDocumentError(`x-unique at ${at} must be true or false`, { pointer: `${at}/x-unique` });
    }
    return flag ? [name] : [];
  });
  // The examples of the item path's parameter, which name an item by its id.
  const itemParameter = [crud.read, crud.merge, crud.replace, crud.delete, ...actions]
    .flatMap((operation) => operation?.parameters.filter((p) => p.in === 'path') ?? [])
    .find((p) => p.collection === collection);
  const parameterExample = itemParameter && exampleOf(itemParameter.parameter);
  const idField = idFieldOf(properties, shape.required, parameterExample);
  const examples = examplesOf(document, schema, crud);
  const idExamples = [...examples.map((item) => item[idField]), exampleOf(properties[idField] ?? {}), parameterExample];
  const idExample = idExamples.find((value): value is string => typeof value === 'string');
  const title = (schema?.schema as { title?: unknown } | undefined)?.title;
  return {
    key,
    collection,
    depth,
    schema,
    noun: typeof title === 'string' ? title.toLowerCase() : collection,
    idField,
    nameField: 'name' in properties ? 'name' : undefined,
    unique,
    idPrefix: /^[A-Za-z]+_/.exec(idExample ?? '')?.[0] ?? '',
    examples,
    crud,
    list: listed?.list,
    actions,
  };
}

/** `id`, else the `…id` property whose example starts as the item path's example does, else a required one. */
function idFieldOf(properties: Properties, required: readonly string[], parameterExample: unknown): string {
  if ('id' in properties) return 'id';
  const candidates = Object.keys(properties).filter((name) => /(^|_)id$/.test(name));
  const prefix = /^[A-Za-z]+_/.exec(String(parameterExample ?? ''))?.[0];
  return (
    candidates.find((name) => prefix && String(exampleOf(properties[name]!) ?? '').startsWith(prefix)) ??
    candidates.find((name) => required.includes(name)) ??
    candidates[0] ??
    'id'
  );
}

/** The success answer's JSON schema, located where it lives. */
function jsonAnswer(document: OpenApiDocument, operation: Operation): SchemaAt | undefined {
  const success = operation.success;
  if (success?.schema === undefined || !/json/i.test(success.mediaType ?? '')) return undefined;
  const raw = operation.responses[success.status]?.content[success.mediaType!]?.media.schema;
  const { node, pointer } = resolveNode(document, raw, success.schema.pointer);
  return { schema: node as SchemaAt['schema'], pointer };
}

/** A list's items and where its answer holds them: the answer itself, or an array property of it. */
function listOf(document: OpenApiDocument, operation: Operation): { items?: SchemaAt; list: ResourceList } {
  const answer = jsonAnswer(document, operation);
  const node = (answer?.schema ?? {}) as Record<string, unknown>;
  let itemsProperty: string | undefined;
  let at: string | undefined;
  if (node['type'] === 'array') at = answer?.pointer;
  else if (answer) {
    const { properties } = objectShape(document, answer.schema, answer.pointer);
    itemsProperty = Object.keys(properties).find((name) => properties[name]!.schema['type'] === 'array');
    if (itemsProperty !== undefined) at = properties[itemsProperty]!.pointer;
  }
  const array =
    at === undefined
      ? undefined
      : resolveNode(document, (getAt(document, at) as { items?: unknown }).items, appendPointer(at, 'items'));
  const items = array && { schema: array.node as SchemaAt['schema'], pointer: array.pointer };
  const itemProperties = items ? Object.keys(objectShape(document, items.schema, items.pointer).properties) : [];
  const query = (operation.query?.parameters ?? []).map((p) => p.name);
  const pick = (names: readonly string[]) => query.find((name) => names.includes(name));
  const paging = { limit: pick(LIMIT), offset: pick(OFFSET), cursor: pick(CURSOR) };
  const filters = query.filter((name) => !Object.values(paging).includes(name) && itemProperties.includes(name));
  const others = query.filter((name) => !Object.values(paging).includes(name) && !filters.includes(name));
  return { ...(items && { items }), list: { operation, itemsProperty, paging, filters, others } };
}

/** A parameter's or a schema's first example. */
function exampleOf(node: Record<string, unknown>): unknown {
  const examples = node['examples'];
  if (Array.isArray(examples)) return examples[0] ?? node['example'];
  const [first] = Object.values((examples ?? {}) as Record<string, { value?: unknown }>);
  return node['example'] ?? first?.value;
}

/** The items the resource's answers show in their examples, and its schema's own examples. */
function examplesOf(
  document: OpenApiDocument,
  schema: SchemaAt | undefined,
  crud: Partial<Record<CrudAction, Operation>>,
): Record<string, unknown>[] {
  const found: unknown[] = [...(((schema?.schema as { examples?: unknown[] })?.examples ?? []) as unknown[])];
  for (const operation of Object.values(crud)) {
    const success = operation.success;
    const media = success?.mediaType ? operation.responses[success.status]?.content[success.mediaType] : undefined;
    if (!media) continue;
    const values = [
      media.media.example,
      ...Object.values(media.media.examples ?? {}).map((e) => deref(document, e as { value?: unknown }).value),
    ];
    for (const value of values) {
      // A list's answer: the array, or an object holding it.
      const arrays = value !== null && typeof value === 'object' ? Object.values(value).filter(Array.isArray) : [];
      found.push(...(Array.isArray(value) ? value : [value, ...arrays.flat()]));
    }
  }
  return found.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object');
}
