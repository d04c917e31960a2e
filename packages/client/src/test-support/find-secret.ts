import { inspect } from 'node:util';

/**
 * Paths under `root` where `secret` can be found: every own key (string and symbol, enumerable
 * or not) of every object reachable from it, through prototypes that are not built-in, plus what
 * `Headers`, `Map`, `Set`, `Request` and `Response` hold in private state, plus what
 * `util.inspect` and `JSON.stringify` print. Empty when the secret is nowhere.
 */
export function findSecret(root: unknown, secret: string): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const classes = [
    Object,
    Error,
    TypeError,
    RangeError,
    SyntaxError,
    AggregateError,
    Array,
    Headers,
    Request,
    Map,
    Set,
  ];
  const builtIn = new Set<unknown>([...classes, Response].map((c) => c.prototype));
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string' || typeof value === 'symbol') {
      if (String(typeof value === 'symbol' ? value.description : value).includes(secret)) found.push(path);
      return;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
    seen.add(value);
    if (value instanceof Headers) for (const [k, v] of value) visit(`${k}: ${v}`, `${path}.headers(${k})`);
    if (value instanceof Request || value instanceof Response) {
      visit(value.url, `${path}.url`);
      visit(value.headers, `${path}.headers`);
    }
    if (value instanceof Map) for (const [k, v] of value) visit([k, v], `${path}.entry`);
    if (value instanceof Set) for (const v of value) visit(v, `${path}.item`);
    for (let o: object | null = value; o && !builtIn.has(o); o = Object.getPrototypeOf(o) as object | null) {
      for (const key of Reflect.ownKeys(o)) {
        if (typeof key === 'symbol') visit(key, `${path}[key ${String(key)}]`);
        else if (key.includes(secret)) found.push(`${path}[key]`);
        const descriptor = Object.getOwnPropertyDescriptor(o, key);
        // Getters of the object's own classes are read too: they are part of what is handed out.
        let field: unknown;
        try {
          field = descriptor && 'value' in descriptor ? descriptor.value : Reflect.get(value, key);
        } catch {
          continue;
        }
        visit(field, `${path}.${String(key)}`);
      }
    }
  };
  visit(root, '$');
  const shown = [
    () => inspect(root, { showHidden: true, depth: 20, getters: true }),
    () => JSON.stringify(root),
    () => String(root),
  ].map(printed);
  for (const [i, text] of shown.entries()) if (text.includes(secret)) found.push(`$<printed ${i}>`);
  return found;
}

/** What `show` prints, or `''` when it throws or gives nothing. */
function printed(show: () => string | undefined): string {
  try {
    return show() ?? '';
  } catch {
    return '';
  }
}
