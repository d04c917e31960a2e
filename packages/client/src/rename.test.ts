import type { RenameProfileRequest } from '@browser-cloud/api-types';
import { describe, expect, it } from 'vitest';
import { createClient } from './connection.js';
import { InvalidResponseError, ValidationError } from './errors.js';
import { json, PROFILE, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

function setup() {
  const fetch = scriptedFetch(json(200, PROFILE));
  const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:4010', fetch });
  return { fetch, rename: client.profiles.rename };
}

describe('profiles.rename', () => {
  it('reads a Profile with properties the document does not know, and passes them through', async () => {
    const extra = { ...PROFILE, region: 'eu-west', usage: { sessions: 3 } };
    const fetch = scriptedFetch(json(200, extra));
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:4010', fetch });
    await expect(client.profiles.rename('prof_1', { name: 'n' })).resolves.toEqual(extra);
  });

  it.each([
    ['without id', { created_at: PROFILE.created_at, name: 'n' }, 'body.id', 'required', 'body.id: is required'],
    ['without created_at', { id: 'prof_1', name: 'n' }, 'body.created_at', 'required', 'body.created_at: is required'],
    ['with a name that is a number', { ...PROFILE, name: 7 }, 'body.name', 'type', 'body.name: must be string or null'],
    ['that is empty', '', 'body', 'type', 'body: must be object'],
  ])(
    'refuses a 200 answer %s: an InvalidResponseError naming the field, not retried',
    async (_what, body, field, rule, why) => {
      const fetch = scriptedFetch(body === '' ? () => new Response('', { status: 200 }) : json(200, body));
      const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:4010', fetch });
      const error = await client.profiles.rename('prof_1', { name: 'n' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ field, rule });
      expect((error as Error).message).toBe(`The answer of PATCH /profiles/prof_1 cannot be read as a Profile: ${why}`);
      expect(fetch).toHaveBeenCalledTimes(1);
    },
  );

  it('PATCHes /profiles/{id_or_name} and resolves to the Profile', async () => {
    const { fetch, rename } = setup();
    await expect(rename('checkout agent/eu', { name: 'checkout-agent-us' })).resolves.toEqual(PROFILE);
    const request = fetch.requests[0]!;
    expect(request.method).toBe('PATCH');
    expect(request.url).toBe('http://127.0.0.1:4010/profiles/checkout%20agent%2Feu');
    expect(await request.json()).toEqual({ name: 'checkout-agent-us' });
  });

  it('accepts names of 1 and 255 characters (counted as characters, not UTF-16 units)', async () => {
    const { fetch, rename } = setup();
    await rename('p', { name: 'x' });
    await rename('p', { name: 'x'.repeat(255) });
    await rename('p', { name: '😀'.repeat(255) });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  const cases: Array<[string, string, unknown, Partial<ValidationError>]> = [
    [
      'an empty name',
      'p',
      { name: '' },
      { field: 'body.name', rule: 'minLength', message: 'body.name: must not be empty' },
    ],
    [
      'a 256-character name',
      'p',
      { name: 'x'.repeat(256) },
      {
        field: 'body.name',
        rule: 'maxLength',
        message: 'body.name: must be at most 255 characters (got 256)',
      },
    ],
    ['a missing name', 'p', {}, { field: 'body.name', rule: 'required' }],
    ['an unknown property', 'p', { name: 'n', id: 'x' }, { field: 'body.id', rule: 'additionalProperties' }],
    ['an empty id_or_name', '', { name: 'n' }, { field: 'path.id_or_name', rule: 'minLength' }],
  ];
  for (const [label, id, body, expected] of cases) {
    it(`rejects ${label} without a request`, async () => {
      const { fetch, rename } = setup();
      const error = await rename(id, body as RenameProfileRequest).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject(expected);
      expect(fetch).not.toHaveBeenCalled();
    });
  }
});
