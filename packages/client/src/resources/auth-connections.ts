import type { LoginRequest, LoginResponse } from '@browser-cloud/api-types';
import {
  validateLoginAuthConnectionPath,
  validateLoginRequest,
  validateReceivedLoginResponse,
} from '@browser-cloud/api-types/validators';
import { type Connection, contextOf } from '../connection.js';
import { execute, type RequestContext, type RequestOptions } from '../request.js';
import { check, pathSegment } from '../validation.js';

/** `client.auth.connections`: managed-auth connections. */
export interface AuthConnections {
  /**
   * Starts a login flow for the auth connection `id` (POST /auth/connections/{id}/login). It
   * returns at once: `flow_type` is `LOGIN` when the user completes authentication at
   * `hosted_url`, `REAUTH` when stored credentials trigger an automatic re-authentication.
   *
   * `id` and `body` are checked against the document before sending (ValidationError). The call
   * is not retried once the server may have acted on it (any response, a timeout, a connection
   * lost after connecting): a second attempt would meet 409 ConflictError. It is retried only
   * when the connection failed before sending (refused, DNS).
   */
  login(id: string, body?: LoginRequest, options?: RequestOptions): Promise<LoginResponse>;
}

export function authConnections(context: RequestContext): AuthConnections {
  return {
    async login(id, body, options) {
      check(validateLoginAuthConnectionPath, { id }, 'path');
      if (body !== undefined) check(validateLoginRequest, body, 'body');
      const segment = pathSegment('id', id, 'auth connection');
      return execute(
        context,
        {
          method: 'POST',
          path: `/auth/connections/${segment}/login`,
          body,
          repeatable: false,
          answer: { validate: validateReceivedLoginResponse, name: 'LoginResponse' },
        },
        options,
      );
    },
  };
}

/**
 * `client.auth.connections.login` as a function of a connection (see `createConnection`): an
 * app that imports only this bundles only the login.
 */
export function loginAuthConnection(
  connection: Connection,
  id: string,
  body?: LoginRequest,
  options?: RequestOptions,
): Promise<LoginResponse> {
  return authConnections(contextOf(connection, 'loginAuthConnection')).login(id, body, options);
}
