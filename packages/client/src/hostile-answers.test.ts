import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createClient } from './connection.js';
import { BrowserCloudError, InvalidResponseError, ValidationError } from './errors.js';
import { createRawClient } from './raw.js';
import { MAX_RESPONSE_BODY_BYTES } from './request.js';
import { findSecret } from './test-support/find-secret.js';
import { json, PROFILE, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

const BASE = 'https://api.example.com';

/** What a call rejects with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('no failure');
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
}

/** An event stream of these raw SSE blocks, ending after them. */
function events(...blocks: string[]): () => Response {
  return () => new Response(blocks.join(''), { headers: { 'content-type': 'text/event-stream' } });
}

describe('a token given with surrounding whitespace (a trailing newline from a file or a heredoc)', () => {
  it('is sent trimmed, and scrubbed in that form from what the server echoes', async () => {
    const echo = `unknown key ${TOKEN}`;
    const fetch = scriptedFetch(json(400, { code: 'bad_request', message: echo, details: [{ message: echo }] }));
    const client = createClient({ baseUrl: BASE, token: ` ${TOKEN}\n`, fetch, maxRetries: 0 });
    const error = await failure(client.profiles.rename('prof_1', { name: 'n' }));
    expect(fetch.requests[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect((error as Error).message).toBe('400 bad_request: unknown key [REDACTED]');
    expect(findSecret(error, TOKEN)).toEqual([]);
  });

  it('is read from the environment the same way', async () => {
    process.env['BROWSER_CLOUD_API_KEY'] = `${TOKEN}\r\n`;
    try {
      const fetch = scriptedFetch(json(401, { code: 'unauthorized', message: `bad ${TOKEN}` }));
      const client = createClient({ baseUrl: BASE, fetch, maxRetries: 0 });
      const error = await failure(client.profiles.rename('prof_1', { name: 'n' }));
      expect((error as Error).message).toBe('401 unauthorized: bad [REDACTED]');
    } finally {
      delete process.env['BROWSER_CLOUD_API_KEY'];
    }
  });

  it('a token with a character no header can carry is refused at createClient, without echoing it', () => {
    for (const token of [`${TOKEN}\u0000x`, `sk_\u001b[2J${TOKEN}`, `sk_é${TOKEN}`]) {
      const error = thrown(() => createClient({ baseUrl: BASE, token, fetch: scriptedFetch() }));
      expect(error).toBeInstanceOf(BrowserCloudError);
      expect((error as Error).message).toMatch(/cannot be sent in an HTTP header/);
      expect((error as Error).message).not.toContain(TOKEN);
    }
  });

  it('a token of whitespace only is missing', () => {
    expect(() => createClient({ baseUrl: BASE, token: ' \n', fetch: scriptedFetch() })).toThrow(/Missing API token/);
  });
});

describe('error text built from what the server sent', () => {
  it('never holds the token: an event property named after it, an event ID holding it', async () => {
    // The first event is readable (an unknown property passes through); the second has a known
    // property of the wrong type.
    const good = JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message: 'm', [TOKEN]: 1 });
    const bad = JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message: 5, [TOKEN]: 1 });
    const fetch = scriptedFetch(events(`id: ${TOKEN}\ndata: ${good}\n\nid: ${TOKEN}\ndata: ${bad}\n\n`));
    const client = createClient({ baseUrl: BASE, token: TOKEN, fetch, maxRetries: 0 });
    const stream = client.browsers.logs.stream('br_1', { source: 'path', path: '/x.log' });
    const first = await stream.next();
    expect(first.done).toBe(false);
    expect(findSecret(first.value, TOKEN)).toEqual([]);
    const error = await failure(stream.next());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toMatch(
      /^Stream event \[REDACTED\] cannot be read as a LogEvent: event\.message: /,
    );
    expect(findSecret(error, TOKEN)).toEqual([]);
  });
});

describe('a 2xx body', () => {
  it(`is read up to MAX_RESPONSE_BODY_BYTES after decompression: a gzip bomb is cut there, with an error naming the bound`, async () => {
    // 64 MiB of JSON whitespace inside a valid object: some 64 KiB on the wire.
    const bomb = gzipSync(
      Buffer.concat([Buffer.from('{"id":"prof_1",'), Buffer.alloc(64 * 1024 * 1024, 0x20), Buffer.from('}')]),
    );
    let pulled = 0;
    // Decompressed as undici does it, in chunks as they are read; a count of what was pulled.
    const answer = () => {
      const body = new Blob([bomb]).stream().pipeThrough(new DecompressionStream('gzip'));
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            pulled += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(counted, { headers: { 'content-type': 'application/json' } });
    };
    const fetch = scriptedFetch(answer);
    const client = createClient({ baseUrl: BASE, token: TOKEN, fetch });
    const error = await failure(client.profiles.rename('prof_1', { name: 'n' }));
    expect(error).toBeInstanceOf(BrowserCloudError);
    expect((error as Error).message).toBe(
      `The response body is over ${MAX_RESPONSE_BODY_BYTES} bytes (MAX_RESPONSE_BODY_BYTES).`,
    );
    // Not retried: the same answer would come again.
    expect(fetch.requests).toHaveLength(1);
    expect(pulled).toBeLessThan(4 * MAX_RESPONSE_BODY_BYTES);
  });

  it('of exactly the bound is read', async () => {
    const body = JSON.stringify(PROFILE);
    const padded = `${body.slice(0, -1)}${' '.repeat(MAX_RESPONSE_BODY_BYTES - body.length)}}`;
    const fetch = scriptedFetch(() => new Response(padded, { headers: { 'content-type': 'application/json' } }));
    const client = createClient({ baseUrl: BASE, token: TOKEN, fetch });
    expect(await client.profiles.rename('prof_1', { name: 'n' })).toEqual(PROFILE);
  });
});

describe('a path parameter of "." or ".."', () => {
  const fetch = scriptedFetch(json(200, PROFILE));
  const client = createClient({ baseUrl: BASE, token: TOKEN, fetch });

  it.each(['.', '..'])('%j is refused before sending, saying to address the profile by its ID', async (name) => {
    const error = await failure(client.profiles.rename(name, { name: 'n' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'path.id_or_name', rule: 'pathSegment' });
    expect((error as Error).message).toMatch(/address the profile by its ID$/);
    const raw = createRawClient(client);
    const rawError = await failure(
      raw.PATCH('/profiles/{id_or_name}', { params: { path: { id_or_name: name } }, body: { name: 'n' } }),
    );
    expect(rawError).toBeInstanceOf(ValidationError);
    expect((rawError as Error).message).toBe((error as Error).message);
    expect(() => client.browsers.logs.stream(name, { source: 'path', path: '/x' })).toThrow(ValidationError);
    expect(await failure(client.auth.connections.login(name))).toBeInstanceOf(ValidationError);
    expect(fetch.requests).toHaveLength(0);
  });

  it('names with dots in them are sent, encoded', async () => {
    await client.profiles.rename('...', { name: 'n' });
    await client.profiles.rename('.a', { name: 'n' });
    expect(fetch.requests.map((request) => new URL(request.url).pathname)).toEqual(['/profiles/...', '/profiles/.a']);
  });
});

describe('telemetry categories named after Object.prototype’s keys', () => {
  it.each(['__proto__', 'constructor', 'toString'])('%s is refused before sending, by the document', async (name) => {
    const fetch = scriptedFetch(json(200, {}));
    const client = createClient({ baseUrl: BASE, token: TOKEN, fetch });
    const browser = Object.fromEntries([[name, { enabled: true }]]);
    const error = await failure(client.auth.connections.login('ac_1', { browser_telemetry: { browser } }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(fetch.requests).toHaveLength(0);
  });
});

describe('lastEventId', () => {
  it.each(['4\u001b[2J', '4\u0007', '4\u007f', '4\t'])('%j (a control character) is refused at the call', (id) => {
    const client = createClient({ baseUrl: BASE, token: TOKEN, fetch: scriptedFetch() });
    expect(() => client.browsers.logs.stream('br_1', { source: 'path', path: '/x' }, { lastEventId: id })).toThrow(
      ValidationError,
    );
  });
});

describe('answers that echo the token', () => {
  it('a Profile, a log event and its ID are handed out without it: replaced in values, a property named after it left out', async () => {
    const data = JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message: `key ${TOKEN}` });
    const fetch = scriptedFetch(
      json(200, { ...PROFILE, name: `n ${TOKEN}`, [`x_${TOKEN}`]: [TOKEN] }),
      events(`id: ${TOKEN}\ndata: ${data}\n\n`),
    );
    const client = createClient({ baseUrl: BASE, token: `${TOKEN}\n`, fetch, maxRetries: 0 });
    const profile = await client.profiles.rename('prof_1', { name: 'n' });
    expect(profile).toEqual({ ...PROFILE, name: 'n [REDACTED]' });
    const stream = client.browsers.logs.stream('br_1', { source: 'path', path: '/x.log' });
    const first = await stream.next();
    expect(first.value).toMatchObject({ message: 'key [REDACTED]' });
    expect(stream.lastEventId).toBe('[REDACTED]');
    expect(findSecret([profile, first, stream.lastEventId], TOKEN)).toEqual([]);
  });

  it('a 2xx body nested past MAX_JSON_DEPTH is refused, not walked', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const fetch = scriptedFetch(() => new Response(deep, { headers: { 'content-type': 'application/json' } }));
    const client = createClient({ baseUrl: BASE, token: TOKEN, fetch });
    const error = await failure(client.profiles.rename('prof_1', { name: 'n' }));
    expect(error).toBeInstanceOf(BrowserCloudError);
    expect((error as Error).message).toBe(
      'The response body is not an answer of the API: JSON nested deeper than 256 levels.',
    );
    expect(fetch.requests).toHaveLength(1);
  });
});
