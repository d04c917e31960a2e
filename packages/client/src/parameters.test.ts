// Values written by the client as each style says, and read back by the request checker's reader
// (readQueryValues, readSimpleValue of the operations model): the bytes, and the values again.
import {
  type OpenApiDocument,
  type OperationParameter,
  operations,
  readQueryValues,
  readSimpleValue,
} from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import { headerValues, pathSegment, type ParameterStyle, styledPathSegment, withQuery } from './parameters.js';

const COLORS = { type: 'array', items: { type: 'string', enum: ['red', 'blue', 'a,b'] } };
const SIZES = { type: 'array', items: { type: 'integer' } };
const POINT = { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'number' } } };

/** An operation of these parameters, read through the operations model (styles defaulted there). */
function parametersOf(parameters: object[]): OperationParameter[] {
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      // The template names `{id}` only when a test declares it.
      [parameters.some((p) => (p as { in: string }).in === 'path') ? '/things/{id}' : '/things']: {
        get: { operationId: 'getThing', parameters, responses: { '204': { description: '' } } },
      },
    },
  } as unknown as OpenApiDocument;
  return [...operations(document)][0]!.parameters as OperationParameter[];
}
const emptyDocument = {} as OpenApiDocument;

describe('withQuery', () => {
  const cases: [string, object, Record<string, unknown>, string][] = [
    [
      'form, exploded (the default)',
      { name: 'colors', in: 'query', schema: COLORS },
      { colors: ['red', 'blue'] },
      'colors=red&colors=blue',
    ],
    [
      'form, not exploded',
      { name: 'colors', in: 'query', explode: false, schema: COLORS },
      { colors: ['red', 'a,b'] },
      'colors=red,a%2Cb',
    ],
    [
      'pipeDelimited',
      { name: 'sizes', in: 'query', style: 'pipeDelimited', explode: false, schema: SIZES },
      { sizes: [1, 2] },
      'sizes=1|2',
    ],
    [
      'spaceDelimited',
      { name: 'sizes', in: 'query', style: 'spaceDelimited', explode: false, schema: SIZES },
      { sizes: [1, 2] },
      'sizes=1%202',
    ],
    [
      'deepObject',
      { name: 'point', in: 'query', style: 'deepObject', schema: POINT },
      { point: { x: 1, y: 2.5 } },
      'point[x]=1&point[y]=2.5',
    ],
    ['a form object, exploded', { name: 'point', in: 'query', schema: POINT }, { point: { x: 1, y: 2 } }, 'x=1&y=2'],
    [
      'a form object, not exploded',
      { name: 'point', in: 'query', explode: false, schema: POINT },
      { point: { x: 1, y: 2 } },
      'point=x,1,y,2',
    ],
    ['an integer, a boolean', { name: 'page', in: 'query', schema: { type: 'integer' } }, { page: 3 }, 'page=3'],
    ['a boolean', { name: 'all', in: 'query', schema: { type: 'boolean' } }, { all: false }, 'all=false'],
    [
      'a name that is an Object.prototype member',
      { name: '__proto__', in: 'query', schema: { type: 'string' } },
      JSON.parse('{"__proto__":"x y"}'),
      '__proto__=x%20y',
    ],
  ];
  for (const [what, parameter, value, expected] of cases) {
    it(`${what}: ${expected}, read back as sent`, () => {
      const parameters = parametersOf([parameter]);
      const styles = Object.fromEntries(parameters.map((p) => [p.name, p.serialization as ParameterStyle]));
      const written = withQuery('/things', value, styles);
      expect(written).toBe(`/things?${expected}`);
      expect(readQueryValues(emptyDocument, parameters, written.split('?')[1]!)).toEqual(value);
    });
  }

  it('leaves out undefined, null and empty arrays', () => {
    expect(withQuery('/t', { a: undefined, b: null, c: [] })).toBe('/t');
  });

  it('reads an unknown name as written, for the closed schema to refuse, and types only what the schema types', () => {
    const parameters = parametersOf([{ name: 'page', in: 'query', schema: { type: 'integer' } }]);
    expect(readQueryValues(emptyDocument, parameters, 'page=two&zz=1&zz=2')).toEqual({ page: 'two', zz: ['1', '2'] });
  });
});

describe('pathSegment, styledPathSegment and headerValues (the simple style)', () => {
  it('writes an integer, an array and an object in a path segment, which the reader types back', () => {
    const [id] = parametersOf([{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }]);
    expect(pathSegment('id', 42, 'thing')).toBe('42');
    expect(readSimpleValue(emptyDocument, id!, '42', true)).toBe(42);
    const [ids] = parametersOf([{ name: 'id', in: 'path', required: true, schema: SIZES }]);
    expect(styledPathSegment('id', [1, 2], 'thing', false)).toBe('1,2');
    expect(readSimpleValue(emptyDocument, ids!, '1,2', true)).toEqual([1, 2]);
    expect(styledPathSegment('id', ['a,b', 'c'], 'thing', false)).toBe('a%2Cb,c');
    expect(styledPathSegment('id', { x: 1, y: 'a b' }, 'thing', true)).toBe('x=1,y=a%20b');
    expect(styledPathSegment('id', { x: 1 }, 'thing', false)).toBe('x,1');
    // A scalar's text is the value itself: a comma in it is encoded, not a separator.
    expect(pathSegment('id', 'a,b', 'thing')).toBe('a%2Cb');
  });

  it('refuses a dot segment, however written', () => {
    expect(() => pathSegment('id', '..', 'thing')).toThrow(/path\.id: "\.\." cannot be sent in a URL/);
    expect(() => pathSegment('id', '.', 'thing')).toThrow(/address the thing by its ID/);
    expect(() => styledPathSegment('id', ['..'], 'thing', false)).toThrow(/path\.id: "\.\." cannot be sent in a URL/);
  });

  it('writes header values as text, and refuses one a header cannot carry, naming it', () => {
    expect(headerValues({ 'X-Depth': 3, 'X-Tags': ['a', 'b'], 'X-None': undefined })).toEqual({
      'X-Depth': '3',
      'X-Tags': 'a,b',
    });
    expect(() => headerValues({ 'X-Note': 'a\r\nInjected: 1' })).toThrow(
      expect.objectContaining({ name: 'ValidationError', field: 'header.X-Note', rule: 'headerValue' }),
    );
  });
});
