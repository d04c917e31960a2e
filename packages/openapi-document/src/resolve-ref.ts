import { OpenApiDocumentError } from './document-error.js';
import { formatPointer, getAt, parsePointer } from './json-pointer.js';
import type { Reference } from './document-types.js';

/** Whether `node` is a Reference Object (`{ $ref: '…' }`). */
export function isReference(node: unknown): node is Reference {
  return node !== null && typeof node === 'object' && typeof (node as { $ref?: unknown }).$ref === 'string';
}

/**
 * The string-form pointer of a local `$ref` (`#/components/schemas/A` → `/components/schemas/A`).
 * @throws OpenApiDocumentError for a reference to another document.
 */
export function refPointer(ref: string): string {
  if (!ref.startsWith('#')) {
    throw new OpenApiDocumentError(`$ref "${ref}" points to another document; only local references are supported`);
  }
  return formatPointer(parsePointer(ref));
}

/** What a local `$ref` names. @throws OpenApiDocumentError when it names nothing. */
export function resolveRef(document: unknown, ref: string): unknown {
  const target = getAt(document, refPointer(ref));
  if (target === undefined) throw new OpenApiDocumentError(`$ref "${ref}" does not resolve in the document`);
  return target;
}

/**
 * Follows `node`'s `$ref`s (a reference to a reference too) to the object they name, and says
 * where it lives (`at` when `node` is no reference).
 * @throws OpenApiDocumentError on an unresolvable or circular reference.
 */
export function resolveNode<T>(document: unknown, node: T | Reference, at: string): { node: T; pointer: string } {
  let current: unknown = node;
  let pointer = at;
  const seen = new Set<string>();
  while (isReference(current)) {
    if (seen.has(current.$ref)) throw new OpenApiDocumentError(`circular $ref "${current.$ref}" at ${at}`);
    seen.add(current.$ref);
    pointer = refPointer(current.$ref);
    current = resolveRef(document, current.$ref);
  }
  return { node: current as T, pointer };
}

/** `node` with its own `$ref`s followed (not those inside it). */
export function deref<T>(document: unknown, node: T | Reference): T {
  return resolveNode(document, node, '').node;
}

/**
 * A copy of `schema` in which every local `$ref`, at any depth, is replaced by what it names, for
 * tools that cannot follow references. Keys beside a `$ref` are kept (OpenAPI 3.1 allows them);
 * a property named `$ref` is no reference.
 * @throws OpenApiDocumentError on a recursive schema, which cannot be inlined.
 */
export function inlineRefs<T>(document: unknown, schema: T): T {
  const inline = (node: unknown, trail: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, trail));
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as Record<string, unknown>;
    let base: Record<string, unknown> = {};
    let next = trail;
    if (typeof $ref === 'string') {
      if (trail.includes($ref)) throw new OpenApiDocumentError(`$ref "${$ref}" is recursive and cannot be inlined`);
      next = [...trail, $ref];
      const target = inline(resolveRef(document, $ref), next);
      if (target === null || typeof target !== 'object' || Array.isArray(target)) return target;
      base = target as Record<string, unknown>;
    }
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(rest)) {
      out[key] =
        key === 'properties' && value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, inline(sub, next)]))
          : inline(value, next);
    }
    return out;
  };
  return inline(schema, []) as T;
}
