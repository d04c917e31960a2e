import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createClient } from './create-client.js';
import { APIConnectionError } from './errors.js';
import { redact, redactCause } from './redact.js';
import { json, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

/** Every way an error might be shown or logged. */
function views(error: unknown): string {
  const e = error as Error;
  const chain: unknown[] = [];
  for (let c: unknown = e; c && chain.length < 10; c = (c as { cause?: unknown }).cause) chain.push(c);
  return [
    String(e),
    e.message,
    e.stack ?? '',
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
    ...chain.map(
      (c) => `${String(c)} ${(c as Error).stack ?? ''} ${JSON.stringify(c)} ${inspect(c, { showHidden: true })}`,
    ),
  ].join('\n');
}

describe('redact', () => {
  it('replaces every occurrence', () => {
    expect(redact(`a ${TOKEN} b ${TOKEN}`, TOKEN)).toBe('a [REDACTED] b [REDACTED]');
    expect(redact('nothing here', TOKEN)).toBe('nothing here');
    expect(redact('x', '')).toBe('x');
  });

  it('returns a cause untouched when it does not mention the secret', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(redactCause(cause, TOKEN)).toBe(cause);
  });

  it('copies a cause that mentions the secret, keeping prototype and code, dropping objects', () => {
    const inner = Object.assign(new Error(`inner ${TOKEN}`), { code: 'ECONNRESET' });
    const cause = Object.assign(new TypeError(`Bearer ${TOKEN}`, { cause: inner }), {
      request: { headers: { authorization: `Bearer ${TOKEN}` } },
      errors: [new Error(TOKEN)],
    });
    const clean = redactCause(cause, TOKEN) as TypeError & { request?: unknown; errors: Error[] };
    expect(clean).toBeInstanceOf(TypeError);
    expect(clean.message).toBe('Bearer [REDACTED]');
    expect(clean.request).toBeUndefined();
    expect(clean.errors[0]?.message).toBe('[REDACTED]');
    expect((clean.cause as { code: string }).code).toBe('ECONNRESET');
    expect(views(clean)).not.toContain(TOKEN);
  });

  it('turns a non-error object cause into a marker', () => {
    expect(redactCause({ token: TOKEN }, TOKEN)).toBe('[REDACTED]');
    expect(redactCause(`x ${TOKEN}`, TOKEN)).toBe('x [REDACTED]');
  });
});

describe('the token never appears in what the client throws', () => {
  const base = { token: TOKEN, baseUrl: 'http://127.0.0.1:1', maxRetries: 0 };

  it('a fetch failure that quotes the Authorization header', async () => {
    const leaky = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error(`socket hang up; sent Authorization: Bearer ${TOKEN}`), { code: 'ECONNRESET' }),
    });
    const fetch = scriptedFetch(leaky);
    const error = await createClient({ ...base, fetch })
      .profiles.rename('p', { name: 'n' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(views(error)).not.toContain(TOKEN);
    expect(views(error)).toContain('socket hang up; sent Authorization: Bearer [REDACTED]');
  });

  it('a fetch that throws the Request itself (headers and all)', async () => {
    const fetch = async (request: Request): Promise<Response> => {
      throw Object.assign(new Error('refused'), { request, headers: Object.fromEntries(request.headers) });
    };
    const error = await createClient({ ...base, fetch })
      .auth.connections.login('ac_1')
      .catch((e: unknown) => e);
    expect(views(error)).not.toContain(TOKEN);
  });

  it('a server that echoes the token in its error body or page', async () => {
    for (const answer of [
      json(401, { code: 'unauthorized', message: `token ${TOKEN} is invalid` }),
      () => new Response(`<p>bad token ${TOKEN}</p>`, { status: 502 }),
    ]) {
      const error = await createClient({ ...base, fetch: scriptedFetch(answer) })
        .profiles.rename('p', { name: 'n' })
        .catch((e: unknown) => e);
      expect(views(error)).not.toContain(TOKEN);
      expect((error as Error).message).toContain('[REDACTED]');
    }
  });
});
