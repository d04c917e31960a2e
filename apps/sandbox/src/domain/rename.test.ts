import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE, DEFAULT_FIXTURE_REFS as R } from '../fixture/default-fixture.js';
import { flowTypesOf, loadSandboxDocument } from '../openapi/sandbox-document.js';
import { type Caller, SandboxState } from '../state/store.js';
import { profileBody, renameProfile } from './rename.js';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');

function setup() {
  let now = NOW;
  const store = new SandboxState(DEFAULT_FIXTURE, {
    flowTtlMs: 1000,
    keepAliveMs: 1000,
    retryMs: 1000,
    now: () => now,
    publicUrl: () => 'http://sandbox.test',
    flowTypes: flowTypesOf(loadSandboxDocument()),
  });
  const caller = store.tokens.get(R.tokens.owner) as Caller;
  /** Renames the profile the path would name, found as the route finds it. */
  const rename = (idOrName: string, name: string, at = NOW) => {
    now = at;
    return renameProfile(store, caller, store.find('profiles', caller, idOrName, 'id_or_name'), name);
  };
  return { store, caller, rename };
}

describe('renameProfile', () => {
  it('renames by id or by name, stamping updated_at', () => {
    const { rename } = setup();
    expect(rename(R.profiles.defaultProject.id, 'new-name', NOW)).toStrictEqual({
      id: R.profiles.defaultProject.id,
      name: 'new-name',
      created_at: '2026-10-02T09:12:44Z',
      updated_at: '2026-11-24T12:00:00.000Z',
      last_used_at: '2026-11-21T17:40:12Z',
    });
    expect(rename(R.profiles.unscoped.name, 'other', NOW + 1)).toStrictEqual({
      id: R.profiles.unscoped.id,
      name: 'other',
      created_at: '2026-09-14T08:00:00Z',
      updated_at: '2026-11-24T12:00:00.001Z',
    });
  });

  it('keeps a profile’s own name, which is no conflict', () => {
    const { rename } = setup();
    const body = rename(R.profiles.defaultProject.id, R.profiles.defaultProject.name, NOW);
    expect(body.name).toBe(R.profiles.defaultProject.name);
  });

  it('answers 404 for a profile the caller cannot see', () => {
    const { rename } = setup();
    expect(() => rename(R.profiles.otherProject.id, 'x', NOW)).toThrow(
      expect.objectContaining({
        status: 404,
        body: { code: 'not_found', message: `${R.profiles.otherProject.id} not found in profiles` },
        headers: {},
      }),
    );
  });

  it('answers 409 for a name another profile of the project has, unscoped ones included', () => {
    const { store, rename } = setup();
    const before = store.all('profiles').map((p) => ({ ...p }));
    expect(() => rename(R.profiles.defaultProject.id, R.profiles.unscoped.name, NOW)).toThrow(
      expect.objectContaining({
        status: 409,
        body: {
          code: 'conflict',
          message: `a profile named "${R.profiles.unscoped.name}" already exists in this project`,
        },
        headers: { 'x-should-retry': 'false' },
      }),
    );
    expect(store.all('profiles')).toEqual(before);
  });

  it('answers 400 for a name that matches several profiles', () => {
    const { store, rename } = setup();
    rename(R.profiles.unnamed.id, 'twin', NOW);
    // Two profiles named alike can only come from a fixture; make one by hand.
    store.all('profiles').find((p) => p.id === R.profiles.unscoped.id)!.name = 'twin';
    expect(() => rename('twin', 'x', NOW)).toThrow(
      expect.objectContaining({
        status: 400,
        body: {
          code: 'bad_request',
          message: '"twin" names 2 profiles; use the id',
          details: [{ code: 'invalid_input', message: 'id_or_name: ambiguous' }],
        },
        headers: {},
      }),
    );
  });
});

describe('profileBody', () => {
  it('omits absent timestamps', () => {
    expect(
      profileBody({
        id: 'p',
        name: null,
        createdAt: 'c',
        organization: DEFAULT_FIXTURE.organizations[0]!,
        logicalProjectId: null,
      }),
    ).toStrictEqual({
      id: 'p',
      name: null,
      created_at: 'c',
    });
  });
});
