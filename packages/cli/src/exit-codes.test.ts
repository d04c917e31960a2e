import {
  APIError,
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  BadRequestError,
  BrowserCloudError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
} from '@browser-cloud/client';
import { describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODES_HELP, exitCodeFor } from './exit-codes.js';

const init = (status: number) => ({ status, headers: new Headers() });

describe('exitCodeFor', () => {
  it.each([
    [new ValidationError([{ field: 'body.name', rule: 'required', message: 'body.name: is required' }]), 2],
    [new AuthenticationError(init(401)), 4],
    [new PermissionDeniedError(init(403)), 4],
    [new NotFoundError(init(404)), 5],
    [new ConflictError(init(409)), 6],
    [new BadRequestError(init(400)), 7],
    [new RateLimitError(init(429)), 7],
    [new InternalServerError(init(503)), 7],
    [new APIError(init(418)), 7],
    [new APIConnectionError(), 8],
    [new APIConnectionTimeoutError(1000), 8],
    [new BrowserCloudError('Log stream event 7 is not a LogEvent of the document'), 1],
    [new TypeError('a bug'), 1],
  ])('%s → %i', (error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });

  it('--help lists every code', () => {
    for (const code of new Set(Object.values(EXIT))) expect(EXIT_CODES_HELP).toMatch(new RegExp(`\\b${code}\\b`));
  });
});
