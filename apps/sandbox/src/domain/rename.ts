import type { Profile as ProfileBody } from '@browser-cloud/api-types';
import { conflict } from '../http/api-error.js';
import type { Caller, Profile, SandboxStore } from '../state/store.js';

/**
 * Renames a profile of the caller's project. The name must be unique within the caller's logical
 * project (unscoped profiles and the default project's count as one): 409 otherwise.
 */
export function renameProfile(
  store: SandboxStore,
  caller: Caller,
  profile: Profile,
  name: string,
  now: number,
): ProfileBody {
  if (store.named('profiles', caller, name).some((other) => other.id !== profile.id)) {
    throw conflict(`a profile named "${name}" already exists in this project`);
  }
  profile.name = name;
  profile.updatedAt = new Date(now).toISOString();
  return profileBody(profile);
}

/** The API's Profile: only the document's properties, absent ones omitted. */
export function profileBody(profile: Profile): ProfileBody {
  return {
    id: profile.id,
    name: profile.name,
    created_at: profile.createdAt,
    ...(profile.updatedAt === undefined ? {} : { updated_at: profile.updatedAt }),
    ...(profile.lastUsedAt === undefined ? {} : { last_used_at: profile.lastUsedAt }),
  };
}
