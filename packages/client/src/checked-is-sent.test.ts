// What is checked is what is sent: each part of a request is serialised once, checked as parsed
// back from those bytes, and those bytes go out on every attempt. Through the public surface
// (createClient with an injected fetch that records every call).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from './connection.js';
import { APIConnectionError, BrowserCloudError, ValidationError } from './errors.js';
import { json, PROFILE, scriptedFetch, settle, TOKEN } from './test-support/mock-fetch.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const unavailable = json(503, { code: 'unavailable', message: 'later' });

function setup(...answers: Parameters<typeof scriptedFetch>) {
  const fetch = scriptedFetch(...(answers.length > 0 ? answers : [json(200, PROFILE)]));
  const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:4010', fetch });
  return { fetch, client };
}

/** What a call rejects with (or throws at once, for a stream), and the number of requests sent. */
async function refusal(run: () => unknown): Promise<unknown> {
  try {
    return await settle(Promise.resolve(run()));
  } catch (error) {
    return error;
  }
}

describe('the body is checked as it is sent', () => {
  it('refuses a body whose toJSON sends another value than its fields say (checked against what is sent)', async () => {
    const { fetch, client } = setup();
    class Body {
      name = 'checkout-agent-eu';
      toJSON() {
        return { name: '', admin: true };
      }
    }
    const error = await refusal(() => client.profiles.rename('prof_1', new Body()));
    expect(error).toBeInstanceOf(ValidationError);
    // Either rule of what toJSON gives (an empty name, an unknown property) refuses it.
    expect(['body.name minLength', 'body.admin additionalProperties']).toContain(
      `${(error as ValidationError).field} ${(error as ValidationError).rule}`,
    );
    expect(fetch).toHaveBeenCalledTimes(0);
  });

  it('sends what toJSON gives when that keeps the rules, and checks that, not the fields', async () => {
    const { fetch, client } = setup();
    const body = { name: '', toJSON: () => ({ name: 'from-toJSON' }) };
    await settle(client.profiles.rename('prof_1', body));
    expect(await fetch.requests[0]!.json()).toEqual({ name: 'from-toJSON' });
  });

  it.each([
    ['a plain inherited property', Object.create({ name: 'inherited' }) as { name: string }],
    [
      'an inherited getter',
      Object.create(Object.defineProperty({}, 'name', { get: () => 'from-getter', enumerable: true })) as {
        name: string;
      },
    ],
    [
      'a class getter',
      new (class {
        get name() {
          return 'from-getter';
        }
      })(),
    ],
  ])('refuses a name held as %s as missing, instead of sending {}', async (_what, body) => {
    expect(body.name).toBeTruthy();
    const { fetch, client } = setup();
    const error = await refusal(() => client.profiles.rename('prof_1', body));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'body.name', rule: 'required', message: 'body.name: is required' });
    expect(fetch).toHaveBeenCalledTimes(0);
  });

  const throwing = () => {
    throw new Error('boom');
  };
  it.each([
    [
      'a throwing getter',
      {
        get name() {
          return throwing();
        },
      },
      'body.name',
    ],
    [
      'a throwing getter deep inside',
      {
        proxy: {
          get id() {
            return throwing();
          },
        },
      },
      'body.proxy.id',
    ],
    ['a Proxy whose get trap throws', new Proxy({ name: 'n' }, { get: throwing }), 'body'],
    ['a Proxy whose ownKeys trap throws', new Proxy({ name: 'n' }, { ownKeys: throwing }), 'body'],
    ['a throwing toJSON', { name: 'n', toJSON: throwing }, 'body'],
    ['a throwing toJSON inside', { proxy: { id: 'p', toJSON: throwing } }, 'body.proxy'],
    ['a BigInt', { name: 10n }, 'body.name'],
    [
      'a cycle',
      (() => {
        const proxy: Record<string, unknown> = { id: 'p' };
        proxy.self = proxy;
        return { proxy };
      })(),
      'body.proxy.self',
    ],
  ])('refuses %s with a ValidationError naming the field, and sends nothing', async (_what, body, field) => {
    const { fetch, client } = setup();
    const call = field.startsWith('body.proxy')
      ? () => client.auth.connections.login('ac_1', body as never)
      : () => client.profiles.rename('prof_1', body as never);
    const error = await refusal(call);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(BrowserCloudError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ field, rule: 'json' });
    expect((error as Error).message).toMatch(new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}: is not JSON \\(`));
    expect(fetch).toHaveBeenCalledTimes(0);
  });

  it('sends the bytes it checked on every attempt, however often the body would answer otherwise', async () => {
    const { fetch, client } = setup(unavailable, unavailable, json(200, PROFILE));
    let reads = 0;
    const body = {
      toJSON: () => {
        reads++;
        return { name: reads === 1 ? 'first' : '' };
      },
    };
    await settle(client.profiles.rename('prof_1', body as never));
    expect(fetch).toHaveBeenCalledTimes(3);
    const sent = await Promise.all(fetch.requests.map((request) => request.text()));
    expect(sent).toEqual(['{"name":"first"}', '{"name":"first"}', '{"name":"first"}']);
    expect(reads).toBe(1);
  });

  it('reads a getter once: the value checked is the value sent', async () => {
    const { fetch, client } = setup();
    let reads = 0;
    const body = {
      get name() {
        reads++;
        return reads === 1 ? 'checked' : '';
      },
    };
    await settle(client.profiles.rename('prof_1', body));
    expect(await fetch.requests[0]!.json()).toEqual({ name: 'checked' });
    expect(reads).toBe(1);
  });
});

describe('path and query values are read once, checked as read and sent as checked', () => {
  it('refuses a path value that is an object, without calling its toString', async () => {
    const { fetch, client } = setup();
    const asText = vi.fn(() => 'prof_1');
    const error = await refusal(() => client.profiles.rename({ toString: asText } as never, { name: 'n' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'path.id_or_name', rule: 'type' });
    expect(asText).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(0);
  });

  it('refuses a path value whose toJSON throws, with a ValidationError', async () => {
    const { fetch, client } = setup();
    const error = await refusal(() =>
      client.profiles.rename(
        {
          toJSON: () => {
            throw new Error('boom');
          },
        } as never,
        { name: 'n' },
      ),
    );
    expect(error).toMatchObject({ field: 'path.id_or_name', rule: 'json' });
    expect(error).toBeInstanceOf(ValidationError);
    expect(fetch).toHaveBeenCalledTimes(0);
  });

  it('builds the URL and the repeatability from the path value checked', async () => {
    const { fetch, client } = setup(unavailable, json(200, PROFILE));
    // Read as JSON reads it: its toJSON, once; the ID form makes the rename repeatable.
    const id = { toJSON: vi.fn(() => 'prof_1') };
    await settle(client.profiles.rename(id as never, { name: 'n' }));
    expect(fetch.requests.map((request) => request.url)).toEqual([
      'http://127.0.0.1:4010/profiles/prof_1',
      'http://127.0.0.1:4010/profiles/prof_1',
    ]);
    expect(id.toJSON).toHaveBeenCalledTimes(1);
  });

  it('reads each query value once: the getter that would answer otherwise is sent as checked', async () => {
    const { fetch, client } = setup(
      () => new Response('', { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    );
    let reads = 0;
    const query = {
      source: 'path' as const,
      get path() {
        reads++;
        return reads === 1 ? '/var/log/a.log' : '';
      },
    };
    const stream = client.browsers.logs.stream('br_1', query);
    await settle(stream[Symbol.asyncIterator]().next());
    expect(new URL(fetch.requests[0]!.url).searchParams.get('path')).toBe('/var/log/a.log');
    expect(reads).toBe(1);
  });

  it('refuses a query whose getter throws at the call, with a ValidationError, and sends nothing', async () => {
    const { fetch, client } = setup();
    const query = {
      source: 'path' as const,
      get path(): string {
        throw new Error('boom');
      },
    };
    const error = await refusal(() => client.browsers.logs.stream('br_1', query));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'query.path', rule: 'json' });
    expect(fetch).toHaveBeenCalledTimes(0);
  });
});
