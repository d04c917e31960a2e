import type { Profile, RenameProfileRequest } from '@browser-cloud/api-types';
import {
  validateReceivedProfile,
  validateRenameProfilePath,
  validateRenameProfileRequest,
} from '@browser-cloud/api-types/validators';
import { type Connection, contextOf } from '../connection.js';
import { execute, type RequestContext, type RequestOptions } from '../request.js';
import { check, pathSegment } from '../validation.js';

/** `client.profiles`: named browser profiles. */
export interface Profiles {
  /**
   * Renames the profile `idOrName` (PATCH /profiles/{id_or_name}) and resolves to the updated
   * Profile. The name is 1 to 255 characters, unique within the project (409 ConflictError
   * otherwise; the check is best-effort on the server). Checked before sending.
   *
   * Addressed by ID (`prof_…`), it is retried on connection errors, timeouts, 408, 429 and 5xx.
   * Addressed by name it is not idempotent (once applied, the old name no longer resolves), so
   * it is retried only when the connection certainly failed before sending, as the login is.
   */
  rename(idOrName: string, body: RenameProfileRequest, options?: RequestOptions): Promise<Profile>;
}

export function profiles(context: RequestContext): Profiles {
  return {
    async rename(idOrName, body, options) {
      check(validateRenameProfilePath, { id_or_name: idOrName }, 'path');
      check(validateRenameProfileRequest, body, 'body');
      const segment = pathSegment('id_or_name', idOrName, 'profile');
      return execute(
        context,
        {
          method: 'PATCH',
          path: `/profiles/${segment}`,
          body,
          repeatable: isProfileId(idOrName),
          answer: { validate: validateReceivedProfile, name: 'Profile' },
        },
        options,
      );
    },
  };
}

/**
 * Whether `idOrName` is a profile ID: the service's IDs start with `prof_`. The document gives
 * IDs no pattern, so this is the one thing to tell them from names by; a name that happens to
 * start with `prof_` is treated as an ID.
 */
function isProfileId(idOrName: string): boolean {
  return idOrName.startsWith('prof_');
}

/**
 * `client.profiles.rename` as a function of a connection (see `createConnection`): an app that
 * imports only this bundles only the rename.
 */
export function renameProfile(
  connection: Connection,
  idOrName: string,
  body: RenameProfileRequest,
  options?: RequestOptions,
): Promise<Profile> {
  return profiles(contextOf(connection, 'renameProfile')).rename(idOrName, body, options);
}
