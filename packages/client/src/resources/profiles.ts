import type { Profile, RenameProfileRequest } from '@browser-cloud/api-types';
import { validateRenameProfilePath, validateRenameProfileRequest } from '@browser-cloud/api-types/validators';
import { execute, type RequestOptions } from '../request.js';
import { check } from '../validation.js';
import type { ResourceContext } from './context.js';

/** `client.profiles`: named browser profiles. */
export interface Profiles {
  /**
   * Renames the profile `idOrName` (PATCH /profiles/{id_or_name}) and resolves to the updated
   * Profile. The name is 1 to 255 characters, unique within the project (409 ConflictError
   * otherwise; the check is best-effort on the server). Checked before sending; retried on
   * connection errors, timeouts, 408, 429 and 5xx.
   */
  rename(idOrName: string, body: RenameProfileRequest, options?: RequestOptions): Promise<Profile>;
}

export function profiles(context: ResourceContext): Profiles {
  return {
    async rename(idOrName, body, options) {
      check(validateRenameProfilePath, { id_or_name: idOrName }, 'path');
      check(validateRenameProfileRequest, body, 'body');
      return execute(
        context,
        {
          repeatable: true,
          send: (init) =>
            context.raw.PATCH('/profiles/{id_or_name}', { params: { path: { id_or_name: idOrName } }, body, ...init }),
        },
        options,
      );
    },
  };
}
