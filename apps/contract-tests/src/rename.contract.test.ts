import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
  type ApiError,
} from '@browser-cloud/client';
import { describe, expect, it } from 'vitest';
import { client, prefer, raw } from './harness/clients.js';
import { documentValidator } from './harness/observed-fetch.js';
import { MOCK_ONLY_REASON, mockOnly, target } from './harness/target.js';

const PROFILE = '#/components/schemas/Profile';
// On the sandbox, a profile whose name no other case relies on.
const profile = target.sandbox?.refs.profiles.unnamed.id ?? 'prof_01HZY5C7D9E1F3G5H7J9K1M3NA';
const unique = (length: number) => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`.padEnd(length, 'x').slice(0, length);

describe('renameProfile', () => {
  it.each([1, 255])('renames with a %i-character name and returns a Profile', async (length) => {
    const name = unique(length);
    const renamed = await client.profiles.rename(profile, { name });
    expect(documentValidator.validateAt(PROFILE, renamed)).toEqual([]);
    if (!mockOnly) return;
    expect(renamed.id).toEqual(expect.any(String));
  });

  it.skipIf(target.mode === 'mock')('keeps the new name (stateful targets)', async () => {
    const name = unique(24);
    const renamed = await client.profiles.rename(profile, { name });
    expect(renamed.name).toBe(name);
    expect(renamed.updated_at).toEqual(expect.any(String));
  });

  it.each([0, 256])('refuses a %i-character name on both sides', async (length) => {
    const name = 'n'.repeat(length);
    const error = await client.profiles.rename(profile, { name }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('name');
    const sent = await raw('PATCH', `/profiles/${profile}`, { body: JSON.stringify({ name }) });
    expect(sent.status).toBe(400);
  });

  it('refuses a missing body on both sides', async () => {
    await expect(client.profiles.rename(profile, undefined as never)).rejects.toBeInstanceOf(ValidationError);
    const sent = await raw('PATCH', `/profiles/${profile}`, { headers: { 'Content-Type': 'application/json' } });
    expect(sent.status).toBe(400);
  });

  it('refuses an unknown property on both sides', async () => {
    const body = { name: 'ok', colour: 'red' };
    await expect(client.profiles.rename(profile, body as never)).rejects.toBeInstanceOf(ValidationError);
    const sent = await raw('PATCH', `/profiles/${profile}`, { body: JSON.stringify(body) });
    expect(sent.status).toBe(400);
  });

  it('refuses an empty id before the network', async () => {
    await expect(client.profiles.rename('', { name: 'ok' })).rejects.toBeInstanceOf(ValidationError);
  });

  const statuses: [number, new (...args: never[]) => ApiError][] = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [500, InternalServerError],
  ];
  it.skipIf(mockOnly).each(statuses)('answers %i as %o with code and message', async (status, ErrorClass) => {
    const error = (await client.profiles.rename(profile, { name: 'checkout-agent-eu' }, prefer(status)).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.status).toBe(status);
    expect(error.code).toEqual(expect.any(String));
    expect(error.message).toEqual(expect.any(String));
  });
});

if (mockOnly) console.info(`[contract] renameProfile: Prefer-based cases skipped: ${MOCK_ONLY_REASON}`);
