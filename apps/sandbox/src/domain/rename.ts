import type { Profile as ProfileBody } from '@browser-cloud/api-types';
import { conflict } from '@browser-cloud/request-checker';
import type { Caller, Profile, SandboxState } from '../state/store.js';

/**
 * Renames a profile of the caller's project. The name must be unique within the caller's logical
 * project (unscoped profiles and the default project's count as one): 409 otherwise.
 */
export function renameProfile(state: SandboxState, caller: Caller, profile: Profile, name: string): ProfileBody {
  if (state.named('profiles', caller, name).some((other) => other.id !== profile.id)) {
    throw conflict(`a profile named "${name}" already exists in this project`);
  }
  profile.name = name;
  profile.updatedAt = new Date(state.settings.now()).toISOString();
  return profileBody(profile);
}

/** The API's Profile: only the document's properties, absent ones omitted. */
export function profileBody(profile: Profile): ProfileBody {
  const { id, name, createdAt, updatedAt, lastUsedAt } = profile;
  return {
    id,
    name,
    created_at: createdAt,
    ...(updatedAt === undefined ? {} : { updated_at: updatedAt }),
    ...(lastUsedAt === undefined ? {} : { last_used_at: lastUsedAt }),
  };
}
