import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE_REFS as R } from '../fixture/default-fixture.js';
import type { Caller } from '../state/store.js';
import { sandboxState } from '../test-support/sandbox-state.js';
import { updateItem } from './crud.js';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');

// The profile rename of the repository's document is the generic merge (PATCH on an item): its
// rules are the document's, the name's uniqueness an `x-unique` on the Profile's `name`.
function setup() {
  let now = NOW;
  const store = sandboxState(() => now);
  const caller = store.tokens.get(R.tokens.owner) as Caller;
  const key = store.keyOf('profiles');
  const resource = store.resource(key)!;
  /** Renames the profile the path would name, found as the route finds it. */
  const rename = (idOrName: string, name: string, at = NOW) => {
    now = at;
    const item = store.find(key, caller, idOrName, 'id_or_name');
    return updateItem(store, resource, caller, item, [], { name }, 'merge').value;
  };
  const profiles = () => [...store.items(key).values()];
  return { store, caller, rename, profiles };
}

describe('a merge (the profile rename)', () => {
  // What the schema declares decides the stamp: the API workflow test may take `updated_at` out.
  it('renames by id or by name, stamping updated_at (where the schema has it)', () => {
    const { rename, store, caller } = setup();
    const key = store.keyOf('profiles');
    const schema = store.resource(key)!.schema?.schema as { properties?: object } | undefined;
    const declared = Object.keys(schema?.properties ?? {});
    const stamp = (at: number) => (declared.includes('updated_at') ? { updated_at: new Date(at).toISOString() } : {});
    const before = (idOrName: string) => structuredClone(store.find(key, caller, idOrName, 'id_or_name').value);
    const checkout = before(R.profiles.defaultProject.id);
    expect(checkout).toMatchObject({ id: R.profiles.defaultProject.id, created_at: '2026-10-02T09:12:44Z' });
    expect(rename(R.profiles.defaultProject.id, 'new-name', NOW)).toStrictEqual({
      ...checkout,
      name: 'new-name',
      ...stamp(NOW),
    });
    const unscoped = before(R.profiles.unscoped.name);
    expect(unscoped).toMatchObject({ id: R.profiles.unscoped.id, created_at: '2026-09-14T08:00:00Z' });
    expect(rename(R.profiles.unscoped.name, 'other', NOW + 1)).toStrictEqual({
      ...unscoped,
      name: 'other',
      ...stamp(NOW + 1),
    });
    if (declared.includes('updated_at')) expect(stamp(NOW + 1)).toEqual({ updated_at: '2026-11-24T12:00:00.001Z' });
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
    const { rename, profiles } = setup();
    const before = profiles().map((p) => structuredClone(p.value));
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
    expect(profiles().map((p) => p.value)).toEqual(before);
  });

  it('answers 400 for a name that matches several profiles', () => {
    const { rename, profiles } = setup();
    rename(R.profiles.unnamed.id, 'twin', NOW);
    // Two profiles named alike can only come from a fixture; make one by hand.
    profiles().find((p) => p.id === R.profiles.unscoped.id)!.value['name'] = 'twin';
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
