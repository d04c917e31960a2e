import { ConflictError, ValidationError } from '@browser-cloud/client';
import { afterAll, expect, it } from 'vitest';
import { expectApiError } from './harness/api-errors.js';
import { client, prefer, raw, restoreProfileName } from './harness/clients.js';
import { documentValidator } from './harness/observed-fetch.js';
import { describeWith, itWith, skipNow } from './harness/resources.js';
import { STATEFUL_ONLY } from '../scripts/skips.mjs';
import { MOCK_ONLY_REASON, mockOnly, mockOnlyTitle, statefulOnlyTitle, target } from './harness/target.js';

const PROFILE = '#/components/schemas/Profile';
const unique = (length: number) =>
  `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`.padEnd(length, 'x').slice(0, length);

describeWith(target.resources, ['profileId'], 'renameProfile', ({ profileId: profile }) => {
  afterAll(restoreProfileName);

  itWith(
    target.resources,
    ['takenProfileName'],
    'refuses the name of another profile of the project with 409',
    async ({ takenProfileName }, context) => {
      if (target.mode === 'mock')
        skipNow(context, `${STATEFUL_ONLY}: it keeps no names and answers every valid rename with 200`);
      const error = await client.profiles.rename(profile, { name: takenProfileName }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).status).toBe(409);
    },
  );

  it.each([1, 255])('renames with a %i-character name and returns a Profile', async (length) => {
    const name = unique(length);
    const renamed = await client.profiles.rename(profile, { name });
    expect(documentValidator.validateAt(PROFILE, renamed)).toEqual([]);
    if (!mockOnly) return;
    expect(renamed.id).toEqual(expect.any(String));
  });

  it.skipIf(target.mode === 'mock')(statefulOnlyTitle('keeps the new name (stateful targets)'), async () => {
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

  it.skipIf(mockOnly).each([400, 401, 403, 404, 409, 500])(
    mockOnlyTitle('answers %i with its error class, code and message'),
    async (status) => {
      await expectApiError(client.profiles.rename(profile, { name: 'checkout-agent-eu' }, prefer(status)), status);
    },
  );
});

if (mockOnly) console.info(`[contract] renameProfile: Prefer-based cases skipped: ${MOCK_ONLY_REASON}`);
