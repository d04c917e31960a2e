import { describe, expect, it } from 'vitest';
import { pathOf, type RequestCase, toCurl } from './request-case.js';

const base: RequestCase = {
  method: 'PATCH',
  pathTemplate: '/profiles/{id_or_name}',
  pathParams: { id_or_name: "it's a/name" },
  query: {},
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ name: "o'brien" }),
  withToken: true,
};

describe('a request case', () => {
  it('encodes path parameters and serialises the query, booleans included', () => {
    expect(pathOf(base)).toBe("/profiles/it's%20a%2Fname");
    expect(
      pathOf({
        ...base,
        pathTemplate: '/b/{id}/logs',
        pathParams: { id: 'b1' },
        query: { source: 'path', path: '/x y', follow: true },
      }),
    ).toBe('/b/b1/logs?source=path&path=%2Fx%20y&follow=true');
  });

  it('writes an array query value as its style says: repeated by default, joined when not exploded', () => {
    const colors = { ...base, pathTemplate: '/t', query: { colors: ['red', 'a,b'] } };
    expect(pathOf(colors)).toBe('/t?colors=red&colors=a%2Cb');
    const joined = { ...colors, queryStyles: { colors: { style: 'form', explode: false } as const } };
    expect(pathOf(joined)).toBe('/t?colors=red,a%2Cb');
  });

  it('prints a curl command that reads the token from $API_TOKEN and quotes for the shell', () => {
    expect(toCurl(base, 'http://127.0.0.1:4010')).toBe(
      `curl -sS -i -X PATCH 'http://127.0.0.1:4010/profiles/it'\\''s%20a%2Fname' -H "Authorization: Bearer $API_TOKEN" -H 'Content-Type: application/json' --data-raw '{"name":"o'\\''brien"}'`,
    );
  });

  it('leaves the Authorization header out of a case sent without a token', () => {
    expect(toCurl({ ...base, withToken: false, body: undefined }, 'http://h')).not.toContain('Authorization');
  });
});
