import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createClient } from './connection.js';
import { errorFromResponse } from './error-body.js';
import { APIConnectionError, type APIError, AuthenticationError, BrowserCloudError } from './errors.js';
import {
  MAX_AGGREGATE_ERRORS,
  MAX_CAUSE_DEPTH,
  MAX_JSON_DEPTH,
  MIN_SECRET_LENGTH,
  redact,
  redactCause,
  redactJson,
  redactHeaders,
} from './redact.js';
import { findSecret } from './test-support/find-secret.js';
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

  it('rebuilds a cause from its safe fields, keeping the built-in class, code and address', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
      address: '127.0.0.1',
      port: 9,
      extra: { anything: 'dropped' },
    });
    const cause = new TypeError('fetch failed', { cause: inner });
    const clean = redactCause(cause, TOKEN) as TypeError & { cause: Record<string, unknown> };
    expect(clean).not.toBe(cause);
    expect(clean).toBeInstanceOf(TypeError);
    expect(clean.name).toBe('TypeError');
    expect(clean.message).toBe('fetch failed');
    expect(clean.stack).toBe(cause.stack);
    expect(clean.cause).toBeInstanceOf(Error);
    expect({ ...clean.cause }).toEqual({
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
      address: '127.0.0.1',
      port: 9,
    });
    expect(clean.cause.message).toBe('connect ECONNREFUSED 127.0.0.1:9');
  });

  it('keeps a name that differs from the class (AbortError) and gives a custom class the built-in one', () => {
    class LeakyError extends Error {
      get detail(): string {
        return TOKEN;
      }
    }
    const abort = new DOMException('This operation was aborted', 'AbortError');
    const clean = redactCause(abort, TOKEN) as Error;
    expect(clean.name).toBe('AbortError');
    expect(clean.message).toBe('This operation was aborted');
    const custom = redactCause(new LeakyError('x'), TOKEN) as Error;
    expect(Object.getPrototypeOf(custom)).toBe(Error.prototype);
    expect(custom.message).toBe('x');
    expect(findSecret(custom, TOKEN)).toEqual([]);
  });

  it('scrubs the token planted in every field a server or runtime could fill', () => {
    const clean = redactCause(plantedCause(), TOKEN) as TypeError & { cause: AggregateError };
    expect(findSecret(clean, TOKEN)).toEqual([]);
    expect(clean).toBeInstanceOf(TypeError);
    expect(clean.message).toBe('fetch failed [REDACTED]');
    expect(clean.cause).toBeInstanceOf(AggregateError);
    expect(clean.cause.message).toBe('all [REDACTED]');
    expect(clean.cause.errors.map((e: Error) => e.message)).toEqual(['first [REDACTED]', 'second']);
    expect(clean.cause.errors[1]).toMatchObject({ code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 });
    expect(Object.getOwnPropertyDescriptor(clean.cause, 'errors')?.enumerable).toBe(false);
    const inner = clean.cause.cause as Record<string, unknown>;
    expect(inner).toMatchObject({ code: 'E_[REDACTED]', syscall: 'connect [REDACTED]', address: '[REDACTED]' });
    expect(inner.port).toBe(443);
  });

  it('an error whose only copy of the token is in a Request field, enumerable or not', () => {
    const request = new Request('http://127.0.0.1:1/x', { headers: { authorization: `Bearer ${TOKEN}` } });
    const visible = Object.assign(new Error('refused'), { request });
    const hidden = new Error('refused');
    Object.defineProperty(hidden, 'request', { value: request, enumerable: false });
    const symbol = Object.assign(new Error('refused'), { [Symbol('request')]: request });
    for (const cause of [visible, hidden, symbol]) {
      expect(findSecret(cause, TOKEN)).not.toEqual([]);
      expect(findSecret(redactCause(cause, TOKEN), TOKEN)).toEqual([]);
    }
  });

  it('scrubs the errors of an AggregateError (non-enumerable) and symbol-keyed or hidden fields', () => {
    const aggregate = new AggregateError([new Error(`one ${TOKEN}`)], 'two addresses failed');
    Object.defineProperty(aggregate, 'hidden', { value: TOKEN, enumerable: false });
    Object.assign(aggregate, { [Symbol.for('token')]: TOKEN });
    const clean = redactCause(aggregate, TOKEN) as AggregateError;
    expect(findSecret(clean, TOKEN)).toEqual([]);
    expect(clean.errors[0]).toBeInstanceOf(Error);
    expect((clean.errors[0] as Error).message).toBe('one [REDACTED]');
  });

  it('stops on a cyclic cause chain, and bounds a long one and a wide AggregateError', () => {
    const a = new Error(`a ${TOKEN}`);
    const b = new Error('b', { cause: a });
    a.cause = b;
    const clean = redactCause(a, TOKEN) as Error;
    expect(findSecret(clean, TOKEN)).toEqual([]);
    expect(depth(clean)).toBeLessThanOrEqual(MAX_CAUSE_DEPTH + 1);

    let long: Error = new Error('bottom');
    for (let i = 0; i < 10_000; i++) long = new Error(`level ${i}`, { cause: long });
    expect(depth(redactCause(long, TOKEN))).toBe(MAX_CAUSE_DEPTH + 1);

    const wide = new AggregateError(
      Array.from({ length: 1000 }, (_, i) => new Error(`e${i}`)),
      'wide',
    );
    expect((redactCause(wide, TOKEN) as AggregateError).errors).toHaveLength(MAX_AGGREGATE_ERRORS);
  });

  it('keeps hostname; leaves out a stack or errors where they do not belong, functions and throwing getters', () => {
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND api.invalid'), {
      code: 'ENOTFOUND',
      hostname: 'api.invalid',
      errors: [new Error('not an AggregateError: dropped')],
    });
    const clean = redactCause(dns, TOKEN) as Record<string, unknown>;
    expect({ ...clean }).toStrictEqual({ code: 'ENOTFOUND', hostname: 'api.invalid' });
    expect(Object.hasOwn(clean, 'errors')).toBe(false);
    expect(Object.hasOwn(clean, 'name')).toBe(false);
    expect(redactCause({ message: 'm', stack: `at ${TOKEN}` }, TOKEN)).toStrictEqual({ message: 'm' });
    expect(redactCause(() => TOKEN, TOKEN)).toBeUndefined();
    const trap = new Error('trap');
    Object.defineProperty(trap, 'code', {
      get() {
        throw new Error(TOKEN);
      },
    });
    expect(redactCause(trap, TOKEN)).toBeInstanceOf(Error);
    expect(Object.hasOwn(redactCause(trap, TOKEN) as object, 'code')).toBe(false);
  });

  it("fields of the wrong type are left out; the copy's fields are writable and configurable", () => {
    expect(redactCause({ name: 5, message: 42, code: true, port: { n: 443 } }, TOKEN)).toStrictEqual({});
    const clean = redactCause(new Error('m'), TOKEN) as Error;
    expect(Object.getOwnPropertyDescriptor(clean, 'message')).toEqual({
      value: 'm',
      writable: true,
      configurable: true,
      enumerable: false,
    });
  });

  it('AggregateErrors nested through their errors are bounded too', () => {
    let nested = new AggregateError([new Error('bottom')], 'level 0');
    for (let i = 1; i < 50; i++) nested = new AggregateError([nested], `level ${i}`);
    let levels = 0;
    for (let c: unknown = redactCause(nested, TOKEN); c instanceof AggregateError; c = c.errors[0]) levels++;
    expect(levels).toBe(MAX_CAUSE_DEPTH + 1);
  });

  it('an AggregateError that lists itself keeps the other errors only', () => {
    const aggregate = new AggregateError([new Error('other')], 'self');
    aggregate.errors.unshift(aggregate);
    const clean = redactCause(aggregate, TOKEN) as AggregateError;
    expect(clean.errors.map((e: Error) => e.message)).toEqual(['other']);
  });

  it('a non-error cause: strings are redacted, objects keep only the safe fields', () => {
    expect(redactCause(`x ${TOKEN}`, TOKEN)).toBe('x [REDACTED]');
    expect(redactCause({ token: TOKEN, code: 'E1', message: `m ${TOKEN}` }, TOKEN)).toEqual({
      code: 'E1',
      message: 'm [REDACTED]',
    });
    expect(redactCause(42, TOKEN)).toBe(42);
    expect(redactCause(undefined, TOKEN)).toBeUndefined();
    expect(redactCause(new Error('x', { cause: undefined }), TOKEN)).not.toHaveProperty('cause');
    expect(redactCause(null, TOKEN)).toBeNull();
  });
});

/** A fetch failure with the token wherever a server's echo or a runtime's object could put it. */
function plantedCause(): Error {
  const request = new Request('http://127.0.0.1:1/x', { headers: { authorization: `Bearer ${TOKEN}` } });
  const inner = Object.assign(new Error(`inner ${TOKEN}`), {
    code: `E_${TOKEN}`,
    errno: -111,
    syscall: `connect ${TOKEN}`,
    address: TOKEN,
    port: 443,
    headers: new Headers({ authorization: `Bearer ${TOKEN}` }),
    config: { token: TOKEN },
  });
  const aggregate = new AggregateError(
    [
      new Error(`first ${TOKEN}`),
      Object.assign(new Error('second'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 }),
    ],
    `all ${TOKEN}`,
    { cause: inner },
  );
  const cause = new TypeError(`fetch failed ${TOKEN}`, { cause: aggregate });
  Object.defineProperty(cause, 'request', { value: request, enumerable: false });
  Object.defineProperty(cause, 'hidden', { value: `Bearer ${TOKEN}`, enumerable: false });
  Object.assign(cause, { [Symbol('auth')]: TOKEN, response: new Response(TOKEN, { headers: { 'x-echo': TOKEN } }) });
  // A cycle back to the top, as a library that links errors both ways makes.
  Object.assign(inner, { cause });
  return cause;
}

function depth(error: unknown): number {
  let n = 0;
  for (let c = error; c instanceof Error; c = c.cause) n++;
  return n;
}

describe('Error bodies and headers', () => {
  it('an Error body keeps its documented fields, absent ones absent, every string redacted; others are left out', async () => {
    const body = {
      code: TOKEN,
      message: TOKEN,
      details: [{ message: TOKEN, zz_not_in_document: TOKEN }, { code: TOKEN }, {}],
      inner_error: { code: 'c' },
      zz_not_in_document: { code: TOKEN },
    };
    const error = await errorFromResponse(new Response(JSON.stringify(body), { status: 400 }), TOKEN);
    expect([error.code, error.message, error.details, error.innerError]).toStrictEqual([
      '[REDACTED]',
      '400 [REDACTED]: [REDACTED]',
      [{ message: '[REDACTED]' }, { code: '[REDACTED]' }, {}],
      { code: 'c' },
    ]);
    const plain = await errorFromResponse(new Response('{"code":"c","message":"m"}', { status: 400 }), TOKEN);
    expect([plain.code, plain.details, plain.innerError]).toStrictEqual(['c', [], undefined]);
  });

  it('redact header values, leave out a header named with the token, keep all without a token', () => {
    const headers = new Headers([
      ['x-a', `a ${TOKEN}`],
      [`x-${TOKEN}`, 'b'],
      ['set-cookie', 'one=1'],
      ['set-cookie', 'two=2'],
    ]);
    const clean = redactHeaders(headers, TOKEN);
    expect([...clean]).toEqual([
      ['set-cookie', 'one=1'],
      ['set-cookie', 'two=2'],
      ['x-a', 'a [REDACTED]'],
    ]);
    expect([...redactHeaders(headers, '')]).toEqual([...headers]);
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

  it('a fetch failure with the token planted everywhere (cause chain, AggregateError, Request, symbols)', async () => {
    for (const operation of ['rename', 'login'] as const) {
      const client = createClient({ ...base, fetch: scriptedFetch(plantedCause()) });
      const call =
        operation === 'rename' ? client.profiles.rename('p', { name: 'n' }) : client.auth.connections.login('a');
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(findSecret(error, TOKEN)).toEqual([]);
      expect((error as Error).message).toBe('Connection error: ECONNREFUSED 127.0.0.1:9');
    }
  });

  it('a server that echoes the token in every field of its Error body and in its headers', async () => {
    const body = {
      code: `bad_${TOKEN}`,
      message: `token ${TOKEN} is invalid`,
      details: [{ code: `c_${TOKEN}`, message: `detail ${TOKEN}` }],
      inner_error: { code: `i_${TOKEN}`, message: `inner ${TOKEN}` },
    };
    const headers = {
      'x-echo': `Bearer ${TOKEN}`,
      'www-authenticate': `Bearer error="invalid_token", token="${TOKEN}"`,
      [`x-${TOKEN}`]: 'name',
      'x-request-id': 'req_1',
    };
    const client = createClient({ ...base, fetch: scriptedFetch(json(401, body, headers)) });
    const error = (await client.profiles.rename('p', { name: 'n' }).catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(findSecret(error, TOKEN)).toEqual([]);
    expect(error.message).toBe('401 bad_[REDACTED]: token [REDACTED] is invalid');
    expect(error.code).toBe('bad_[REDACTED]');
    expect(error.details).toEqual([{ code: 'c_[REDACTED]', message: 'detail [REDACTED]' }]);
    expect(error.innerError).toEqual({ code: 'i_[REDACTED]', message: 'inner [REDACTED]' });
    expect(error.headers.get('x-echo')).toBe('Bearer [REDACTED]');
    expect(error.headers.get(`x-${TOKEN}`)).toBeNull();
    expect(error.requestId).toBe('req_1');
    expect(error.hasCode('c_[REDACTED]')).toBe(true);
  });

  it('the log stream: an echoing Error body, and a planted connection failure', async () => {
    const echo = json(
      401,
      { code: 'unauthorized', message: TOKEN, details: [{ message: TOKEN }], inner_error: { message: TOKEN } },
      { 'x-echo': TOKEN },
    );
    for (const answer of [echo, plantedCause()]) {
      const stream = createClient({ ...base, fetch: scriptedFetch(answer) }).browsers.logs.stream('br_1', {
        source: 'path',
        path: '/x',
      });
      const error = await stream.next().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BrowserCloudError);
      expect(findSecret(error, TOKEN)).toEqual([]);
    }
  });
});

describe('redactJson of an answer', () => {
  const answer = (secret: string) => ({ id: 'p', name: `a ${secret} b`, [`k_${secret}`]: [secret], created_at: 'c' });

  it(`scrubs a secret of MIN_SECRET_LENGTH characters or more: values replaced, a property named after it left out`, () => {
    const secret = 'x'.repeat(MIN_SECRET_LENGTH);
    expect(redactJson(answer(secret), secret, true)).toEqual({ id: 'p', name: 'a [REDACTED] b', created_at: 'c' });
  });

  it('leaves the answer as it came for a shorter secret, property names above all', () => {
    for (const secret of ['x'.repeat(MIN_SECRET_LENGTH - 1), 'test', 'e']) {
      expect(redactJson(answer(secret), secret, true)).toEqual(answer(secret));
    }
  });

  it('scrubs strings in arrays and under a `__proto__` key of the JSON, which stays a property of its own', () => {
    const secret = 'x'.repeat(MIN_SECRET_LENGTH);
    const parsed = JSON.parse(`{"__proto__": "${secret}", "tags": [["${secret}"], 1, null]}`);
    const clean = redactJson(parsed, secret, true);
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.hasOwn(clean, '__proto__')).toBe(true);
    expect(JSON.stringify(clean)).toBe('{"__proto__":"[REDACTED]","tags":[["[REDACTED]"],1,null]}');
  });

  it('hands back the parsed value itself, no copy, when it holds no secret', () => {
    const parsed = { id: 'p', tags: ['a', { b: 1 }] };
    const clean = redactJson(parsed, 'x'.repeat(MIN_SECRET_LENGTH), true);
    expect(clean).toBe(parsed);
    expect(clean).toEqual({ id: 'p', tags: ['a', { b: 1 }] });
  });

  it('refuses nesting past MAX_JSON_DEPTH whatever the secret', () => {
    const deep = JSON.parse(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`);
    expect(() => redactJson(deep, 'e', true)).toThrow(RangeError);
  });
});

describe('redactJson', () => {
  it('replaces a secret of any length in every string, and rewrites no property name', () => {
    const issues = [{ field: 'event.message', rule: 'type', message: 'event.message: must be string (got e)' }];
    expect(redactJson(issues, 'e')).toEqual([
      {
        field: '[REDACTED]v[REDACTED]nt.m[REDACTED]ssag[REDACTED]',
        rule: 'typ[REDACTED]',
        message: '[REDACTED]v[REDACTED]nt.m[REDACTED]ssag[REDACTED]: must b[REDACTED] string (got [REDACTED])',
      },
    ]);
  });
});
