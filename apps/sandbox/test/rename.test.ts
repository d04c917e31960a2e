import { validateProfile } from '@browser-cloud/api-types/validators';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE, type RunningSandbox } from '../src/index.js';
import { REFS, TOKENS, call, declared, detailMessages, expectError, inspect, rename, start } from './helpers.js';

let sandbox: RunningSandbox;
let clock = Date.parse('2026-11-22T20:00:00.000Z');
beforeAll(async () => {
  sandbox = await start({ now: () => clock });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await inspect(sandbox, '/reset', 'POST');
});

const P = REFS.profiles;

describe('rename', () => {
  it('renames by id, sets updated_at and keeps the other fields', async () => {
    clock += 1000;
    const r = await rename(sandbox, P.defaultProject.id, { name: 'checkout-agent-eu' });
    expect(r.status).toBe(200);
    expect(validateProfile(r.body)).toBe(true);
    // The fixture's profile, as far as the document's Profile has room for it.
    expect(r.body).toEqual(
      declared('Profile', {
        id: P.defaultProject.id,
        name: 'checkout-agent-eu',
        created_at: '2026-10-02T09:12:44Z',
        updated_at: new Date(clock).toISOString(),
        last_used_at: '2026-11-21T17:40:12Z',
      }),
    );
  });

  it('renames by name, and the new name sticks', async () => {
    expect((await rename(sandbox, P.defaultProject.name, { name: 'first' })).status).toBe(200);
    expectError(await rename(sandbox, P.defaultProject.name, { name: 'again' }), 404, 'not_found');
    clock += 5;
    const second = await rename(sandbox, 'first', { name: 'second' });
    expect(second.body).toMatchObject(
      declared('Profile', { id: P.defaultProject.id, name: 'second', updated_at: new Date(clock).toISOString() }),
    );
    const state = (await inspect(sandbox, '/state')).body as {
      resources: Record<string, Array<{ id: string; name: string | null }>>;
    };
    expect(state.resources['/profiles']!.find((p) => p.id === P.defaultProject.id)?.name).toBe('second');
  });

  it('names a profile that had no name; omits what the profile lacks', async () => {
    const r = await rename(sandbox, P.unnamed.id, { name: 'named-now' });
    expect(r.status).toBe(200);
    expect(validateProfile(r.body)).toBe(true);
    expect(r.body).not.toHaveProperty('last_used_at');
  });

  it('accepts renaming a profile to its own name', async () => {
    expect((await rename(sandbox, P.defaultProject.id, { name: P.defaultProject.name })).status).toBe(200);
  });

  it('answers 404 for an unknown profile', async () => {
    expectError(await rename(sandbox, 'prof_nope', { name: 'x' }), 404, 'not_found');
  });
});

describe('unique names within the logical project', () => {
  it('refuses a name taken in the same project (409)', async () => {
    const ok = await rename(sandbox, P.unnamed.id, { name: 'taken' });
    expect(ok.headers.get('x-should-retry')).toBeNull();
    const taken = await rename(sandbox, P.defaultProject.id, { name: 'taken' });
    expectError(taken, 409, 'conflict');
    expect(taken.headers.get('x-should-retry')).toBe('false');
  });

  it('counts unscoped profiles and the default project as one project', async () => {
    expectError(await rename(sandbox, P.defaultProject.id, { name: P.unscoped.name }), 409, 'conflict');
    expectError(await rename(sandbox, P.unscoped.id, { name: P.defaultProject.name }), 409, 'conflict');
    // The unscoped profile is reachable by name from the default project.
    expect((await rename(sandbox, P.unscoped.name, { name: 'research-agent-2' })).status).toBe(200);
  });

  it('allows the same name in another project', async () => {
    // prof_other_checkout is already named checkout-agent, like the default project's profile.
    expect((await rename(sandbox, P.otherProject.id, { name: P.unscoped.name }, TOKENS.otherProject)).status).toBe(200);
    expect((await rename(sandbox, P.unnamed.id, { name: 'research-agent-3' })).status).toBe(200);
  });

  it('refuses a name that matches several profiles with 400 (best-effort checks can leave duplicates)', async () => {
    // A duplicate can only come from the fixture here: start a sandbox with one.
    const fixture = structuredClone(DEFAULT_FIXTURE);
    fixture.profiles.push({
      id: 'prof_dup',
      projectId: REFS.projects.default,
      name: P.defaultProject.name,
      createdAt: '2026-01-01T00:00:00Z',
    });
    const dup = await start({ fixture });
    try {
      const body = expectError(await rename(dup, P.defaultProject.name, { name: 'x' }), 400, 'bad_request');
      expect(detailMessages(body)).toEqual(['id_or_name: ambiguous']);
      expect((await rename(dup, 'prof_dup', { name: 'unique-now' })).status).toBe(200);
    } finally {
      await dup.close();
    }
  });
});

describe('the body', () => {
  it('takes names of 1 to 255 characters', async () => {
    expect((await rename(sandbox, P.defaultProject.id, { name: 'n'.repeat(255) })).status).toBe(200);
    expect((await rename(sandbox, P.defaultProject.id, { name: 'é'.repeat(255) })).status).toBe(200);
    const long = expectError(await rename(sandbox, P.defaultProject.id, { name: 'n'.repeat(256) }), 400, 'bad_request');
    expect(detailMessages(long)).toEqual(['name: must be at most 255 characters (got 256)']);
    const empty = expectError(await rename(sandbox, P.defaultProject.id, { name: '' }), 400, 'bad_request');
    expect(detailMessages(empty)).toEqual(['name: must not be empty']);
  });

  it('requires name and nothing else', async () => {
    expect(detailMessages(expectError(await rename(sandbox, P.defaultProject.id, {}), 400, 'bad_request'))).toEqual([
      'name: is required',
    ]);
    expect(
      detailMessages(
        expectError(await rename(sandbox, P.defaultProject.id, { name: 'a', id: 'b' }), 400, 'bad_request'),
      ),
    ).toEqual(['id: is not a known property']);
    expect(
      detailMessages(expectError(await rename(sandbox, P.defaultProject.id, { name: 7 }), 400, 'bad_request')),
    ).toEqual(['name: must be string']);
    expect(detailMessages(expectError(await rename(sandbox, P.defaultProject.id, ['a']), 400, 'bad_request'))).toEqual([
      'body: must be object',
    ]);
  });

  it('requires a body', async () => {
    const r = await call(sandbox, 'PATCH', `/profiles/${P.defaultProject.id}`);
    expectError(r, 400, 'bad_request');
  });
});
