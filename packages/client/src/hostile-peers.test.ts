import { describe, expect, it } from 'vitest';
import { createClient } from './create-client.js';
import { ValidationError } from './errors.js';
import { json, PROFILE, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

// Peers that answer in ways a careless client mishandles: redirects, base URLs that smuggle in a
// query or a fragment, strings that are not Unicode, error bodies that stall, tokens short
// enough to be found in the data.

describe('a base URL', () => {
  const refused: Array<[string, string, string]> = [
    ['http://127.0.0.1:1/p#frag', 'fragment', 'must not hold a fragment'],
    ['http://127.0.0.1:1/p#', 'fragment', 'must not hold a fragment'],
    ['http://127.0.0.1:1/p?tenant=1', 'query', 'must not hold a query'],
    ['http://127.0.0.1:1/p?', 'query', 'must not hold a query'],
    [' http://127.0.0.1:1/p', 'whitespace', 'must not hold whitespace'],
    ['http://127.0.0.1:1/p ', 'whitespace', 'must not hold whitespace'],
    ['http://127.0.0.1:1/p\n', 'whitespace', 'must not hold whitespace'],
    ['http://127.0.0.1:1/a b', 'whitespace', 'must not hold whitespace'],
    ['http://user:hunter2@127.0.0.1:1/p', 'credentials', 'must not hold credentials'],
    ['http://user@127.0.0.1:1/p', 'credentials', 'must not hold credentials'],
    ['ftp://127.0.0.1:1/p', 'httpUrl', 'must be an absolute http(s) URL'],
    ['api.example.com', 'httpUrl', 'must be an absolute http(s) URL'],
  ];

  it.each(refused)(
    '%j is refused at createClient with a ValidationError naming it (rule %s)',
    (baseUrl, rule, says) => {
      const fetch = scriptedFetch(json(200, PROFILE));
      let error: unknown;
      try {
        createClient({ token: TOKEN, baseUrl, fetch });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ field: 'baseUrl', rule });
      expect((error as Error).message).toMatch(new RegExp(`^baseUrl: ${says.replace(/[()]/g, '\\$&')}`));
      expect((error as Error).message).not.toContain('hunter2');
    },
  );

  it('from the environment is held to the same rules, and the message names the variable', () => {
    process.env['BROWSER_CLOUD_BASE_URL'] = 'http://127.0.0.1:1/p?tenant=1';
    try {
      expect(() => createClient({ token: TOKEN })).toThrow(/^baseUrl: must not hold a query.*BROWSER_CLOUD_BASE_URL/);
    } finally {
      delete process.env['BROWSER_CLOUD_BASE_URL'];
    }
  });

  it('with a path prefix and trailing slashes is accepted, the slashes removed', async () => {
    const fetch = scriptedFetch(json(200, PROFILE));
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1/p/', fetch });
    await client.profiles.rename('prof_1', { name: 'n' });
    expect(fetch.requests[0]?.url).toBe('http://127.0.0.1:1/p/profiles/prof_1');
  });
});
