import { describe, expect, it } from 'vitest';
import { preflight } from './preflight.mjs';

const TOKEN = 'sk_secret_preflight_token';

function answering(status: number, seen: Request[] = []): typeof fetch {
  return async (input, init) => {
    seen.push(new Request(input, init));
    return new Response('{"code":"x","message":"y"}', { status, headers: { 'content-type': 'application/json' } });
  };
}

describe('preflight', () => {
  it('stops on a 401 with one line that names the token and hides it', async () => {
    const result = await preflight({ baseUrl: 'http://api.test', token: TOKEN, fetch: answering(401) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toBe(
      'preflight: http://api.test refused API_TOKEN (401 Unauthorized); check the token; no case was run',
    );
    expect(result.message).not.toContain(TOKEN);
  });

  it.each([200, 400, 403, 404])('lets the run go on when the token is accepted (%i)', async (status) => {
    expect(await preflight({ baseUrl: 'http://api.test', token: TOKEN, fetch: answering(status) })).toEqual({
      ok: true,
      status,
    });
  });

  it("sends the token as a bearer token, once, to the document's first secured GET with its parameters' examples", async () => {
    const get = (security: unknown[]) => ({
      operationId: 'zzRead',
      security,
      parameters: [
        { name: 'zz_id', in: 'path', required: true, schema: { type: 'string' }, example: 'a b' },
        { name: 'zz_q', in: 'query', schema: { type: 'boolean' }, example: true },
      ],
      responses: { '200': { description: 'ok' } },
    });
    const document = {
      openapi: '3.1.0',
      info: { title: 'zz', version: '0' },
      security: [{ bearerAuth: [] }],
      paths: {
        '/zz_open/{zz_id}': { get: { ...get([{}]), operationId: 'zzOpen' } },
        '/zz_things/{zz_id}': { get: get([{ bearerAuth: [] }]) },
      },
    };
    const seen: Request[] = [];
    await preflight({ baseUrl: 'http://api.test', token: TOKEN, document, fetch: answering(200, seen) });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]!.url).toBe('http://api.test/zz_things/a%20b?zz_q=true');

    const none = await preflight({
      baseUrl: 'http://api.test',
      token: TOKEN,
      document: { ...document, paths: {} },
      fetch: answering(401, seen),
    });
    expect(none).toEqual({ ok: true, status: undefined });
    expect(seen).toHaveLength(1);
  });

  it('says the target cannot be reached, without a stack', async () => {
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    };
    const result = await preflight({ baseUrl: 'http://127.0.0.1:9', token: TOKEN, fetch: refused });
    expect(result).toEqual({
      ok: false,
      message: 'preflight: http://127.0.0.1:9 cannot be reached (connect ECONNREFUSED 127.0.0.1:9); no case was run',
    });
  });
});
