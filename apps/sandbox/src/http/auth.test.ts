import { describe, expect, it } from 'vitest';
import { type OpenApiDocument, type Operation, operations } from '@browser-cloud/openapi-document';
import type { TokenRole } from '../fixture/fixture-schema.js';
import type { Caller } from '../state/store.js';
import { bearerToken, permits } from './auth.js';

describe('bearerToken', () => {
  it('reads the token of a Bearer header, the scheme in any case, around spaces', () => {
    expect(bearerToken('Bearer sk_abc')).toBe('sk_abc');
    expect(bearerToken('bearer sk_abc')).toBe('sk_abc');
    expect(bearerToken('BEARER sk_abc')).toBe('sk_abc');
    expect(bearerToken('Bearer    sk_abc   ')).toBe('sk_abc');
  });

  it('refuses anything but the whole header being one Bearer token', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Basic sk_abc')).toBeUndefined();
    expect(bearerToken('Bearersk_abc')).toBeUndefined();
    // Anchored at both ends: no text before the scheme, none after the token.
    expect(bearerToken('xBearer sk_abc')).toBeUndefined();
    expect(bearerToken(' Bearer sk_abc')).toBeUndefined();
    expect(bearerToken('Bearer sk_abc extra')).toBeUndefined();
    expect(bearerToken('Bearer sk_abc\t')).toBeUndefined();
    expect(bearerToken('Bearer \tsk_abc')).toBeUndefined();
  });
});

describe('permits', () => {
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/things/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getThing', tags: ['Things'], responses: { '200': { description: 'ok' } } },
        post: { operationId: 'pokeThing', tags: ['Things'], responses: { '200': { description: 'ok' } } },
        delete: { operationId: 'deleteThing', tags: ['Other'], responses: { '204': { description: 'gone' } } },
      },
    },
  };
  const [get, post, remove] = [...operations(document)] as [Operation, Operation, Operation];
  const caller = (role: TokenRole, excludes?: string[]) =>
    ({ role, organization: { plan: { name: 'p', ...(excludes ? { excludes } : {}) } } }) as unknown as Caller;

  it('lets owners and members call everything, and a readonly token only the safe methods', () => {
    for (const role of ['owner', 'member'] as const) {
      expect([get, post, remove].map((o) => permits(caller(role), o))).toEqual([true, true, true]);
    }
    expect([get, post, remove].map((o) => permits(caller('readonly'), o))).toEqual([true, false, false]);
  });

  it('grants every operation of a plan but those it excludes, by operationId or by tag', () => {
    expect([get, post, remove].map((o) => permits(caller('owner', ['pokeThing']), o))).toEqual([true, false, true]);
    expect([get, post, remove].map((o) => permits(caller('owner', ['Things']), o))).toEqual([false, false, true]);
  });
});
