// Create, list, merge, replace and delete of any resource of the document, within the caller's
// project: the rules are the document's (its schemas, `x-unique`, the list's parameters), none is
// written per resource.
import { type ObjectShape, objectShape, type Resource, schemaTypes } from '@browser-cloud/openapi-document';
import { badRequest, conflict } from '@browser-cloud/request-checker';
import { createdItem, mergedItem, replacedItem, takenValue } from '../state/items.js';
import type { Caller, Item, SandboxState } from '../state/store.js';

const nowOf = (state: SandboxState) => new Date(state.settings.now()).toISOString();

/**
 * 409 when `value` shares an `x-unique` property's value with another item of the caller's
 * project: checked before the change, as the service does (best-effort, no unique index).
 */
function checkUnique(
  state: SandboxState,
  resource: Resource,
  caller: Caller,
  parents: string[],
  value: object,
  self?: Item,
) {
  const others = state.visible(resource.key, caller, parents).filter((other) => other !== self);
  const taken = takenValue(
    resource,
    value as Record<string, unknown>,
    others.map((other) => other.value),
  );
  if (taken === undefined) return;
  const what =
    taken.field === resource.nameField
      ? `named ${JSON.stringify(taken.value)}`
      : `with ${taken.field} ${JSON.stringify(taken.value)}`;
  throw conflict(`a ${resource.noun} ${what} already exists in this project`);
}

export function createItem(
  state: SandboxState,
  resource: Resource,
  caller: Caller,
  parents: string[],
  body: unknown,
): Item {
  const value = createdItem(state.settings.document, resource, body, nowOf(state));
  checkUnique(state, resource, caller, parents, value);
  const { organization, logicalProjectId } = caller;
  const item = { id: String(value[resource.idField]), value, parents, seed: {}, organization, logicalProjectId };
  state.add(resource.key, item);
  return item;
}

/** `item` with the body merged onto it (PATCH) or in its place (PUT), checked for unique values first. */
export function updateItem(
  state: SandboxState,
  resource: Resource,
  caller: Caller,
  item: Item,
  parents: string[],
  body: unknown,
  how: 'merge' | 'replace',
): Item {
  const update = how === 'merge' ? mergedItem : replacedItem;
  const value = update(state.settings.document, resource, item.value, body, nowOf(state));
  checkUnique(state, resource, caller, parents, value, item);
  item.value = value;
  return item;
}

export function deleteItem(state: SandboxState, resource: Resource, item: Item): void {
  state.delete(resource.key, item.id);
}

type Schema = Record<string, unknown>;

/**
 * A page of the caller's items in creation order, after the list's filters (a query parameter
 * named as a property keeps the items whose property equals it), from its offset or after its
 * cursor (an item's id), at most its limit (the parameter's default when not sent). The answer is
 * the page, or the document's envelope around it, and the paging headers it declares.
 * @throws ApiError 400 for a cursor that names no item of the list.
 */
export function listItems(
  state: SandboxState,
  resource: Resource,
  caller: Caller,
  parents: string[],
  query: Readonly<Record<string, unknown>>,
): { body: unknown; headers: Record<string, string> } {
  const list = resource.list!;
  const { limit, offset, cursor } = list.paging;
  const kept = state
    .visible(resource.key, caller, parents)
    .map((item) => item.value)
    .filter((value) => list.filters.every((name) => query[name] === undefined || value[name] === query[name]));
  let start = offset && query[offset] !== undefined ? Number(query[offset]) : 0;
  if (cursor && query[cursor] !== undefined) {
    const after = kept.findIndex((value) => value[resource.idField] === query[cursor]);
    if (after < 0) throw badRequest('the query is invalid', [[cursor, `names no ${resource.noun} of this list`]]);
    start = after + 1;
  }
  const limitSchema = list.operation.query?.parameters.find((p) => p.name === limit)?.schema?.schema as
    | Schema
    | undefined;
  const size = Number(limit && query[limit] !== undefined ? query[limit] : (limitSchema?.['default'] ?? Infinity));
  const page = kept.slice(start, start + size);
  const hasMore = start + page.length < kept.length;
  const last = page.at(-1)?.[resource.idField];
  const next = hasMore ? (cursor ? last : start + page.length) : undefined;

  const { document } = state.settings;
  const success = list.operation.responses[list.operation.success!.status]!;
  const headers: Record<string, string> = {};
  for (const name of Object.keys(success.headers)) {
    const value = /has-?more/i.test(name)
      ? hasMore
      : /next/i.test(name)
        ? next
        : /total|count/i.test(name)
          ? kept.length
          : undefined;
    if (value !== undefined) headers[name.toLowerCase()] = String(value);
  }
  if (list.itemsProperty === undefined) return { body: page, headers };
  const envelope = Object.values(success.content)[0]?.schema;
  const { properties } = envelope
    ? objectShape(document, envelope.schema, envelope.pointer)
    : { properties: {} as ObjectShape['properties'] };
  const body: Record<string, unknown> = { [list.itemsProperty]: page };
  for (const [name, { schema }] of Object.entries(properties)) {
    if (name === list.itemsProperty) continue;
    const types = schemaTypes(schema);
    if (types.includes('boolean')) body[name] = hasMore;
    else if (/total|count/i.test(name)) body[name] = kept.length;
    else if (/next|cursor|offset/i.test(name)) {
      if (next !== undefined) body[name] = types.includes('string') ? String(next) : next;
      else if (types.includes('null')) body[name] = null;
    }
  }
  return { body, headers };
}
