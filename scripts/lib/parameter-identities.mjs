// `redocly diff` pairs the items of two parameter lists by how alike their JSON is, not by name
// and location: an item equal in both is paired first, then each other released item with the most
// alike current one (1 − edit distance / length, at least 0.5). A parameter written like another
// one (both a `$ref` into `LogStreamQuery`'s properties, as `follow` and an added `tail` are) pairs
// with it whenever the other changed more, and the gate then reported a rename, a narrowed type and
// the other one added, none of which was made. This gives every parameter of both documents, before
// Redocly reads them, one extra key that makes Redocly pair parameters by name and location.
import { deref, HTTP_METHODS } from '@browser-cloud/openapi-document';

/** The key added to each parameter, taken out of the report again (`withoutIdentityKeys`). */
const IDENTITY_KEY = 'x-api-changes-parameter-identity';

/**
 * Characters no document writes (the Private Use Area, then the CJK ideographs, each one UTF-16 unit
 * as Redocly's edit distance counts them), one per identity.
 */
const PAD_CHARACTERS = [
  [0xe000, 0xf8ff],
  [0x4e00, 0x9fff],
].flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i)));

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A parameter's identity: its location and its name (a header's in any case, as HTTP reads it). */
const identityOf = (parameter) =>
  `${parameter.in}\u0000${parameter.in === 'header' ? String(parameter.name).toLowerCase() : parameter.name}`;

/** Every parameter object of `document` (references followed), in path items, operations and callbacks. */
function parametersOf(document) {
  const found = new Set();
  const seenItems = new Set();
  const resolved = (node) => {
    try {
      const target = deref(document, node);
      return isObject(target) ? target : undefined;
    } catch {
      return undefined; // an unresolvable reference: Redocly's own reading reports it
    }
  };
  const visitPathItem = (node) => {
    const item = resolved(node);
    if (!item || seenItems.has(item)) return;
    seenItems.add(item);
    const operations = HTTP_METHODS.map((method) => resolved(item[method])).filter(Boolean);
    for (const owner of [item, ...operations]) {
      for (const parameter of Array.isArray(owner.parameters) ? owner.parameters : []) {
        const target = resolved(parameter);
        if (target && typeof target.name === 'string' && typeof target.in === 'string') found.add(target);
      }
    }
    for (const operation of operations) {
      for (const callback of Object.values(isObject(operation.callbacks) ? operation.callbacks : {})) {
        for (const callbackItem of Object.values(resolved(callback) ?? {})) visitPathItem(callbackItem);
      }
    }
  };
  for (const items of [document.paths, document.webhooks, document.components?.pathItems]) {
    for (const item of Object.values(isObject(items) ? items : {})) visitPathItem(item);
  }
  return [...found];
}

/**
 * Adds to each parameter of `documents` (the two JSON renderings Redocly diffs, changed in place) a
 * key whose value is one character repeated, the character chosen by the parameter's name and
 * location, four times as long as the longest JSON of a parameter of that identity. Two parameters of
 * one identity then stay alike enough to pair (at least 0.6), and two of different identities are
 * too unlike (at most 0.2): each one's pad is a run of a character the other does not hold.
 */
export function keyParametersByIdentity(documents) {
  const parameters = documents.flatMap(parametersOf);
  const longest = new Map();
  for (const parameter of parameters) {
    const id = identityOf(parameter);
    longest.set(id, Math.max(longest.get(id) ?? 0, JSON.stringify(parameter).length));
  }
  // Sorted, so that the same identities get the same characters in every run.
  const identities = [...longest.keys()].sort();
  const pads = new Map(
    identities.map((id, i) => [id, PAD_CHARACTERS[i % PAD_CHARACTERS.length].repeat(4 * longest.get(id))]),
  );
  for (const parameter of parameters) parameter[IDENTITY_KEY] = pads.get(identityOf(parameter));
}

/** `value` (a value of Redocly's report) without the keys `keyParametersByIdentity` added, at any depth. */
export function withoutIdentityKeys(value) {
  if (Array.isArray(value)) return value.map(withoutIdentityKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== IDENTITY_KEY)
      .map(([key, item]) => [key, withoutIdentityKeys(item)]),
  );
}
