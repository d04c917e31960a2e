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

  it('--help gives each code the meaning the CLI exits with it for, and no other code', () => {
    // The help's lines: "  5    404: not found …".
    const meanings = new Map<number, string>();
    for (const line of EXIT_CODES_HELP.split('\n').slice(1)) {
      const [, code, text] = /^\s+(\d+)\s+(.*)$/.exec(line) ?? [];
      expect(code, line).toBeDefined();
      meanings.set(Number(code), text!);
    }
    const phrases: Record<keyof typeof EXIT, string> = {
      ok: 'success',
      failure: 'other failure',
      usage: 'bad usage',
      config: 'configuration',
      auth: '401 or 403',
      notFound: '404',
      conflict: '409',
      api: 'any other API error',
      connection: 'could not be reached',
      interrupted: 'interrupted',
      terminated: 'SIGTERM',
    };
    for (const [name, code] of Object.entries(EXIT)) {
      expect(meanings.get(code), `exit code ${code} (${name})`).toContain(phrases[name as keyof typeof EXIT]);
    }
    expect([...meanings.keys()].sort((a, b) => a - b)).toEqual([...new Set(Object.values(EXIT))].sort((a, b) => a - b));
  });
});
