// Names from document text, in one place: every generator (client, api-types, CLI, MCP, contract
// case files) derives what it emits with these, so that a name the lint accepts is one each of
// them can write. Letters and digits of any script are kept (`профили` stays itself); anything
// else separates words.
import pluralize from 'pluralize';

/**
 * The words of `text`: split at anything not a letter or a digit, and where a lower-case letter or
 * a digit meets an upper-case one (`loginAuthConnection`, `HTTPServer` → `HTTP`, `Server`).
 */
export function words(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

const upperFirst = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `rename profile`, `get-widget`, `widgets.get` → `renameProfile`, `getWidget`, `widgetsGet`; `HTTPServer` → `httpServer`. */
export function camelCase(text: string): string {
  const [first = '', ...rest] = words(text);
  const head = first === first.toUpperCase() ? first.toLowerCase() : first.charAt(0).toLowerCase() + first.slice(1);
  return head + rest.map(upperFirst).join('');
}

/** `Widget-Item`, `v1.Widget`, `auth connections` → `WidgetItem`, `V1Widget`, `AuthConnections`; `APIError` stays. */
export const pascalCase = (text: string): string => words(text).map(upperFirst).join('');

/** `loginAuthConnection` → `login_auth_connection`. */
export const snakeCase = (text: string): string => words(text).join('_').toLowerCase();

/** `id_or_name` → `id-or-name`. */
export const kebabCase = (text: string): string => words(text).join('-').toLowerCase();

/** `profiles` → `PROFILE` (for environment variables: `CONTRACT_PROFILE_ID`). */
export const constantCase = (text: string): string => snakeCase(text).toUpperCase();

/** The singular of an English noun: `connections` → `connection`, `proxies` → `proxy`; the noun's last word only. */
export function singular(noun: string): string {
  const match = /(\p{L}+)$/u.exec(noun);
  return match ? noun.slice(0, match.index) + pluralize.singular(match[1]!) : noun;
}

/** ECMAScript's reserved words, strict-mode ones included, and names TypeScript reserves for types. */
const RESERVED_WORDS = new Set(
  [
    'await break case catch class const continue debugger default delete do else enum export extends false finally',
    'for function if import in instanceof new null return super switch this throw true try typeof var void while with',
    'yield let static implements interface package private protected public arguments eval undefined NaN Infinity',
    'any boolean never number object string symbol unknown bigint',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Names a generated binding or property must not take: the global built-ins a module would shadow
 * and what every object inherits (`{ __proto__: f }` sets a prototype; `constructor`, `toString`
 * answer on any object, so a lookup would find them where nothing was generated).
 */
const BUILT_INS = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  ...['Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Math', 'JSON', 'Date'],
  ...['RegExp', 'Error', 'Promise', 'Proxy', 'Reflect', 'Map', 'Set', 'WeakMap', 'WeakSet', 'globalThis'],
  ...['require', 'module', 'exports', 'console', 'fetch', 'URL', 'Request', 'Response', 'Headers', 'AbortSignal'],
]);

/** Whether `name` is a reserved word of JavaScript or a name TypeScript reserves for a type (`string`). */
export const isReservedWord = (name: string): boolean => RESERVED_WORDS.has(name);

/** Whether `name` is a valid JavaScript identifier as written. */
export const isIdentifier = (name: string): boolean => /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name);

/**
 * `name` made safe as a binding and a property of generated code: `_` before a leading digit
 * (`2fa` → `_2fa`), `_` after a reserved word or a built-in (`delete` → `delete_`, as Stainless
 * does; `constructor` → `constructor_`). Empty when `name` has no letter or digit.
 */
export function safeIdentifier(name: string): string {
  if (name === '') return '';
  const named = /^\p{N}/u.test(name) ? `_${name}` : name;
  return RESERVED_WORDS.has(named) || BUILT_INS.has(named) ? `${named}_` : named;
}

/**
 * `name` made safe as a property of generated objects (`client.profiles.delete` is fine): `_`
 * before a leading digit, `_` after what every object inherits (`constructor`, `__proto__`).
 */
export function safeProperty(name: string): string {
  if (name === '') return '';
  const named = /^\p{N}/u.test(name) ? `_${name}` : name;
  return Object.hasOwn(Object.prototype, named) ? `${named}_` : named;
}
