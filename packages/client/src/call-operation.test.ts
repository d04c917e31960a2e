import { describe, expect, it, vi } from 'vitest';
import { callOperation, type OperationCall } from './call-operation.js';
import { BrowserCloudError, ValidationError } from './errors.js';

const call = (overrides: Partial<OperationCall>): OperationCall => ({
  sdk: { resource: ['zz', 'things'], verb: 'move' },
  path: ['first', 'second'],
  body: 'required',
  query: 'positional',
  ...overrides,
});

/** A client of the test's own: one method, recording its arguments. */
function clientWith() {
  const move = vi.fn(async () => ({ ok: true }));
  return { client: { zz: { things: { move } } }, move };
}

describe('callOperation', () => {
  it('passes path values in path order, then the body, the query and the options', async () => {
    const { client, move } = clientWith();
    const signal = new AbortController().signal;
    const answer = callOperation(
      client,
      call({}),
      { path: { second: 'b', first: 'a' }, query: { dry_run: true }, body: { label: 'x' } },
      { signal },
    );
    await expect(answer).resolves.toEqual({ ok: true });
    expect(move).toHaveBeenCalledWith('a', 'b', { label: 'x' }, { dry_run: true }, { signal });
  });

  it('puts a query of optional parameters only in the options, and none when it is empty', () => {
    const { client, move } = clientWith();
    const options = { signal: new AbortController().signal };
    const args = { path: { first: 'a', second: 'b' }, body: { label: 'x' } };
    callOperation(client, call({ query: 'options' }), { ...args, query: { dry_run: true } }, options);
    expect(move).toHaveBeenLastCalledWith('a', 'b', { label: 'x' }, { ...options, query: { dry_run: true } });
    callOperation(client, call({ query: 'options' }), { ...args, query: {} }, options);
    expect(move).toHaveBeenLastCalledWith('a', 'b', { label: 'x' }, options);
  });

  it('leaves out what the operation does not take, and an empty optional body', () => {
    const { client, move } = clientWith();
    callOperation(client, call({ body: 'none', query: 'none' }), { path: { first: 1 }, query: {}, body: {} }, {});
    expect(move).toHaveBeenLastCalledWith(1, undefined, {});
    callOperation(client, call({ body: 'optional', query: 'none' }), { path: {}, query: {}, body: {} }, {});
    expect(move).toHaveBeenLastCalledWith(undefined, undefined, undefined, {});
    // A part the operation does not take is not read, whatever is passed there (none at all, a throwing getter).
    const throwing = Object.defineProperty({}, 'x', {
      enumerable: true,
      get: () => {
        throw new Error('read');
      },
    });
    const noParts = { path: { first: 1 }, query: undefined, body: throwing } as never;
    callOperation(client, call({ body: 'none', query: 'none' }), noParts, {});
    expect(move).toHaveBeenLastCalledWith(1, undefined, {});
    // A required body goes as it is, empty or not: the method says what it lacks.
    callOperation(client, call({ query: 'none' }), { path: {}, query: {}, body: {} }, {});
    expect(move).toHaveBeenLastCalledWith(undefined, undefined, {}, {});
  });

  it('a method the client lacks is a BrowserCloudError naming it', () => {
    const { client } = clientWith();
    for (const sdk of [
      { resource: ['zz', 'things'], verb: 'zz_not_in_document' },
      { resource: ['zz_not_in_document', 'things'], verb: 'move' },
    ]) {
      expect(() => callOperation(client, call({ sdk }), { path: {}, query: {}, body: {} }, {})).toThrow(
        new BrowserCloudError(
          `This client has no method ${[...sdk.resource, sdk.verb].join('.')}: it is older than the document of this call`,
        ),
      );
    }
  });

  it.each([
    [
      'a path value',
      {
        path: {
          get first(): string {
            throw new Error('boom');
          },
        },
        query: {},
        body: {},
      },
      'path.first',
    ],
    [
      'the body',
      {
        path: {},
        query: {},
        body: new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('boom');
            },
          },
        ),
      },
      'body',
    ],
    [
      'the query',
      {
        path: {},
        query: new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('boom');
            },
          },
        ),
        body: {},
      },
      'query',
    ],
  ])('refuses %s that throws when read with a ValidationError naming it, and calls nothing', (_what, args, field) => {
    const { client, move } = clientWith();
    expect(() => callOperation(client, call({}), args, {})).toThrow(ValidationError);
    try {
      callOperation(client, call({}), args, {});
    } catch (error) {
      expect(error).toMatchObject({ field, rule: 'json' });
    }
    expect(move).not.toHaveBeenCalled();
  });
});
