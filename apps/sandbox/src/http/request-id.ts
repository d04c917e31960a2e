import { randomBytes } from 'node:crypto';

/** A new `X-Request-Id` value: `req_` and 16 hex digits. */
export function newRequestId(): string {
  return `req_${randomBytes(8).toString('hex')}`;
}
