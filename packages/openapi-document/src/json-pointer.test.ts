import { describe, expect, it } from 'vitest';
import {
  appendPointer,
  escapePointerToken,
  formatPointer,
  getAt,
  JsonPointerError,
  parsePointer,
  unescapePointerToken,
} from './json-pointer.js';

describe('pointer tokens', () => {
  it('escapes ~ as ~0 and / as ~1, ~ first', () => {
    expect(escapePointerToken('/profiles/{id}')).toBe('~1profiles~1{id}');
    expect(escapePointerToken('a~b')).toBe('a~0b');
    expect(escapePointerToken('~1')).toBe('~01');
    expect(escapePointerToken(3)).toBe('3');
  });

  it('unescapes ~1 before ~0, so ~01 is the literal ~1', () => {
    expect(unescapePointerToken('~1profiles~1{id}')).toBe('/profiles/{id}');
    expect(unescapePointerToken('~01')).toBe('~1');
    expect(unescapePointerToken('a~0b')).toBe('a~b');
  });

  it('refuses a ~ not followed by 0 or 1', () => {
    expect(() => unescapePointerToken('a~2')).toThrow(JsonPointerError);
    expect(() => unescapePointerToken('a~')).toThrow(/"~" not followed by 0 or 1/);
  });
});

describe('parsePointer and formatPointer', () => {
  it('reads the string form and the URI-fragment form', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('#')).toEqual([]);
    expect(parsePointer('/paths/~1login/post')).toEqual(['paths', '/login', 'post']);
    expect(parsePointer('#/paths/~1profiles~1%7Bid%7D')).toEqual(['paths', '/profiles/{id}']);
    expect(parsePointer('/a/')).toEqual(['a', '']);
  });

  it('percent-decodes only the fragment form', () => {
    expect(parsePointer('/a%20b')).toEqual(['a%20b']);
    expect(parsePointer('#/a%20b')).toEqual(['a b']);
    expect(() => parsePointer('#/a%zz')).toThrow(/malformed percent-encoding/);
  });

  it('refuses a pointer that does not start with /', () => {
    expect(() => parsePointer('components/schemas')).toThrow(/must be empty or start with "\/"/);
  });

  it('formats and appends tokens, escaping each', () => {
    expect(formatPointer(['paths', '/a~b', 'get'])).toBe('/paths/~1a~0b/get');
    expect(formatPointer([])).toBe('');
    expect(appendPointer('#/components/parameters/Id', 'schema')).toBe('/components/parameters/Id/schema');
    expect(parsePointer(formatPointer(['x/y', '~', '0']))).toEqual(['x/y', '~', '0']);
  });
});

describe('getAt', () => {
  const root = { a: { 'b/c': [10, { '~': 'tilde' }] }, nothing: null };

  it('walks objects and arrays', () => {
    expect(getAt(root, '')).toBe(root);
    expect(getAt(root, '/a/b~1c/0')).toBe(10);
    expect(getAt(root, '#/a/b~1c/1/~0')).toBe('tilde');
    expect(getAt(root, '/nothing')).toBeNull();
  });

  it('gives undefined for what is not there, never a prototype property', () => {
    expect(getAt(root, '/a/missing')).toBeUndefined();
    expect(getAt(root, '/nothing/deeper')).toBeUndefined();
    expect(getAt(root, '/a/b~1c/7')).toBeUndefined();
    expect(getAt(root, '/__proto__')).toBeUndefined();
    expect(getAt(root, '/a/constructor')).toBeUndefined();
  });
});
