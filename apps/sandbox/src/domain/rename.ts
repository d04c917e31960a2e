import type { Profile as ProfileBody } from '@browser-cloud/api-types';
import { badRequest, conflict, notFound } from '../http/api-error.js';
import type { Caller, Profile, SandboxStore } from '../state/store.js';

/**
 * Renames a profile found by id or by name. The name must be unique within the caller's logical
 * project (unscoped profiles and the default project's count as one): 409 otherwise.
 */
export function renameProfile(
  store: SandboxStore,
  caller: Caller,
  idOrName: string,
  name: string,
  now: number,
): ProfileBody {
  const matches = store.profilesByIdOrName(caller, idOrName);
  const [profile] = matches;
  if (profile === undefined) throw notFound(`profile ${idOrName} not found`);
  if (matches.length > 1) {
    throw badRequest(`profile name "${idOrName}" matches ${matches.length} profiles; reference the profile by id`, [
      ['id_or_name', 'ambiguous'],
    ]);
  }
  if (store.profilesNamed(caller, name).some((other) => other.id !== profile.id)) {
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
