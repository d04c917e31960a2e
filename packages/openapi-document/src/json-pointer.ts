/** A JSON pointer (RFC 6901) that cannot be read. */
export class JsonPointerError extends Error {
  override readonly name = 'JsonPointerError';
}

/** `a/b~c` → `a~1b~0c`: `~` first, or the `~` of a `~1` would be escaped again. */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `a~1b~0c` → `a/b~c`. @throws JsonPointerError on a `~` not followed by `0` or `1`. */
export function unescapePointerToken(token: string): string {
  if (/~(?![01])/.test(token)) {
    throw new JsonPointerError(`JSON pointer token "${token}" has a "~" not followed by 0 or 1`);
  }
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The reference tokens of a pointer, unescaped. Takes the string form (`''`, `/paths/~1login`)
 * and the URI-fragment form that `$ref` uses (`#`, `#/components/schemas/Profile`), whose tokens
 * may also be percent-encoded.
 */
export function parsePointer(pointer: string): string[] {
  const fragment = pointer.startsWith('#');
  const body = fragment ? pointer.slice(1) : pointer;
  if (body === '') return [];
  if (!body.startsWith('/')) {
    throw new JsonPointerError(`JSON pointer "${pointer}" must be empty or start with "/" (or "#/" as a URI fragment)`);
  }
  return body
    .slice(1)
    .split('/')
    .map((token) => unescapePointerToken(fragment ? percentDecode(token, pointer) : token));
}

/** `('paths', '/login', 'post')` → `/paths/~1login/post` (the string form). */
export function formatPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${escapePointerToken(token)}`).join('');
}

/** A pointer extended by more tokens: `appendPointer('/paths', '/login')` → `/paths/~1login`. */
export function appendPointer(pointer: string, ...tokens: (string | number)[]): string {
  return formatPointer([...parsePointer(pointer), ...tokens]);
}

/** The value `pointer` names inside `root`, or `undefined` when there is none. */
export function getAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of parsePointer(pointer)) {
    // Own properties only: `/__proto__` or `/constructor` must not reach into the prototype.
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

function percentDecode(token: string, pointer: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    throw new JsonPointerError(`JSON pointer "${pointer}" has a malformed percent-encoding`);
  }
}
