import { getAt, loadOpenApiDocument, schemaValidator } from '@browser-cloud/openapi-document';
import {
  validateBrowserTelemetryRequestConfig,
  validateLoginAuthConnectionPath,
  validateLoginRequest,
  validateLogStreamQuery,
  validateProxyRef,
  validateRenameProfileRequest,
} from './generated/validators/index.js';
import { describe, expect, it } from 'vitest';
import { toIssues } from './validation-issues.js';
import type { ErrorObject, Validator } from './validator.js';

/** The issues of a value the validator refuses, with the first issue's field and rule and all messages. */
function failure<T>(validate: Validator<T>, value: unknown, root: string) {
  expect(validate(value)).toBe(false);
  const issues = toIssues(validate.errors ?? [], value, root);
  return { field: issues[0]?.field, rule: issues[0]?.rule, message: issues.map((i) => i.message).join('; '), issues };
}

describe('toIssues over the generated validators', () => {
  it('passes valid values through', () => {
    expect(validateLoginRequest({ proxy: { id: 'prx_1' }, record_session: true })).toBe(true);
    expect(validateLoginRequest({})).toBe(true);
  });

  it('ProxyRef with both id and name: oneOf, exactly one of', () => {
    const error = failure(validateLoginRequest, { proxy: { id: 'a', name: 'b' } }, 'body');
    expect(error).toMatchObject({ field: 'body.proxy', rule: 'oneOf' });
    expect(error.message).toBe('body.proxy: must provide exactly one of "id" or "name"');
    expect(error.issues).toHaveLength(1);
  });

  it('ProxyRef with neither id nor name: same rule', () => {
    const error = failure(validateLoginRequest, { proxy: {} }, 'body');
    expect(error.message).toBe('body.proxy: must provide exactly one of "id" or "name"');
    expect(failure(validateProxyRef, {}, 'proxy').message).toBe('proxy: must provide exactly one of "id" or "name"');
  });

  it('ProxyRef with an empty id reports the id, not the other branch', () => {
    const error = failure(validateLoginRequest, { proxy: { id: '' } }, 'body');
    expect(error).toMatchObject({
      field: 'body.proxy.id',
      rule: 'minLength',
      message: 'body.proxy.id: must not be empty',
    });
  });

  it('ProxyRef with an unknown property reports that property', () => {
    const error = failure(validateLoginRequest, { proxy: { id: 'x', port: 1 } }, 'body');
    expect(error).toMatchObject({
      field: 'body.proxy.port',
      rule: 'additionalProperties',
      message: 'body.proxy.port: is not a known property',
    });
  });

  it('unknown property at the top of a body', () => {
    const error = failure(validateLoginRequest, { proxi: { id: 'x' } }, 'body');
    expect(error).toMatchObject({ field: 'body.proxi', rule: 'additionalProperties' });
  });

  it('enabled=false with browser categories, inside the nullable anyOf', () => {
    const error = failure(
      validateLoginRequest,
      { browser_telemetry: { enabled: false, browser: { console: { enabled: true } } } },
      'body',
    );
    expect(error).toMatchObject({ field: 'body.browser_telemetry', rule: 'not' });
    expect(error.message).toBe(
      'body.browser_telemetry: these properties are not allowed in this combination (enabled=false, browser)',
    );
  });

  it('a category outside the nine, inside the nullable anyOf', () => {
    const error = failure(
      validateLoginRequest,
      { browser_telemetry: { browser: { cookies: { enabled: true } } } },
      'body',
    );
    expect(error.message).toBe('body.browser_telemetry.browser.cookies: is not a known property');
    expect(error.issues).toHaveLength(1);
  });

  it('a wrongly typed nullable field names the allowed types', () => {
    expect(failure(validateLoginRequest, { record_session: 'yes' }, 'body').message).toBe(
      'body.record_session: must be boolean',
    );
  });

  it('profile names of 0 and 256 characters; 255 passes', () => {
    expect(failure(validateRenameProfileRequest, { name: '' }, 'body')).toMatchObject({
      field: 'body.name',
      rule: 'minLength',
    });
    const long = failure(validateRenameProfileRequest, { name: 'n'.repeat(256) }, 'body');
    expect(long).toMatchObject({ field: 'body.name', rule: 'maxLength' });
    expect(long.message).toBe('body.name: must be at most 255 characters (got 256)');
    expect(validateRenameProfileRequest({ name: 'n'.repeat(255) })).toBe(true);
  });

  it('missing name is required', () => {
    expect(failure(validateRenameProfileRequest, {}, 'body')).toMatchObject({
      field: 'body.name',
      rule: 'required',
      message: 'body.name: is required',
    });
  });

  it('conditional requirements of the log query', () => {
    expect(failure(validateLogStreamQuery, { source: 'path' }, 'query')).toMatchObject({
      field: 'query.path',
      rule: 'required',
    });
    expect(failure(validateLogStreamQuery, { source: 'supervisor', path: '/x' }, 'query')).toMatchObject({
      field: 'query.supervisor_process',
      rule: 'required',
    });
    const sources = getAt(
      loadOpenApiDocument(),
      '#/components/schemas/LogStreamQuery/properties/source/enum',
    ) as string[];
    expect(failure(validateLogStreamQuery, { source: 'zz_not_in_document' }, 'query').message).toBe(
      `query.source: must be one of ${sources.map((s) => `"${s}"`).join(', ')}`,
    );
  });

  it('empty path id', () => {
    expect(failure(validateLoginAuthConnectionPath, { id: '' }, 'path')).toMatchObject({
      field: 'path.id',
      rule: 'minLength',
      message: 'path.id: must not be empty',
    });
  });
});

describe('toIssues by keyword', () => {
  const error = (e: Partial<ErrorObject>): ErrorObject =>
    ({ instancePath: '', schemaPath: '#', params: {}, ...e }) as ErrorObject;

  it('format, const, type, pattern, limits and escaped pointers', () => {
    expect(
      toIssues([error({ keyword: 'format', instancePath: '/at', params: { format: 'date-time' } })], {}, 'x'),
    ).toEqual([{ field: 'x.at', rule: 'format', message: 'x.at: must match format "date-time"' }]);
    expect(toIssues([error({ keyword: 'const', params: { allowedValue: 'log' } })], {}, 'x')[0]?.message).toBe(
      'x: must be "log"',
    );
    expect(
      toIssues([error({ keyword: 'minLength', instancePath: '/a~1b/0', params: { limit: 3 } })], {}, 'x')[0],
    ).toEqual({
      field: 'x.a/b[0]',
      rule: 'minLength',
      message: 'x.a/b[0]: must be at least 3 characters',
    });
    expect(toIssues([error({ keyword: 'type', params: { type: 'string,null' } })], {}, 'x')[0]?.message).toBe(
      'x: must be string or null',
    );
    expect(toIssues([error({ keyword: 'type', params: { type: ['integer', 'null'] } })], {}, 'x')[0]?.message).toBe(
      'x: must be integer or null',
    );
    expect(toIssues([error({ keyword: 'minimum', params: { comparison: '>=', limit: 1 } })], {}, 'x')[0]?.message).toBe(
      'x: must be >= 1',
    );
    expect(toIssues([error({ keyword: 'maxItems', params: { limit: 2 } })], {}, 'x')[0]?.message).toBe(
      'x: must have at most 2 items',
    );
    expect(toIssues([error({ keyword: 'minItems', params: { limit: 1 } })], {}, 'x')[0]?.message).toBe(
      'x: must have at least 1 items',
    );
    expect(toIssues([error({ keyword: 'uniqueItems', params: { i: 3, j: 1 } })], {}, 'x')[0]?.message).toBe(
      'x: must not repeat an item (items 1 and 3 are equal)',
    );
  });

  it("one wording whether or not Ajv wrote a message: Ajv's own is never used", () => {
    const bare = error({ keyword: 'pattern', instancePath: '/a', params: { pattern: '^a' } });
    expect(toIssues([bare], {}, 'x')[0]).toEqual({
      field: 'x.a',
      rule: 'pattern',
      message: 'x.a: must match pattern "^a"',
    });
    expect(toIssues([{ ...bare, message: 'must match pattern "^a"' }], {}, 'x')[0]?.message).toBe(
      'x.a: must match pattern "^a"',
    );
    const enumError = error({ keyword: 'enum', params: { allowedValues: ['a', 'b'] } });
    expect(
      toIssues([{ ...enumError, message: 'must be equal to one of the allowed values' }], {}, 'x')[0]?.message,
    ).toBe('x: must be one of "a", "b"');
  });

  it('an unknown keyword names the rule and its params', () => {
    expect(
      toIssues(
        [error({ keyword: 'multipleOf', params: { multipleOf: 2 }, message: 'must be multiple of 2' })],
        {},
        'x',
      )[0],
    ).toEqual({ field: 'x', rule: 'multipleOf', message: 'x: breaks the "multipleOf" rule (multipleOf 2)' });
    expect(toIssues([error({ keyword: 'false schema' })], {}, 'x')[0]?.message).toBe(
      'x: breaks the "false schema" rule',
    );
  });

  it('without prefixFields the root names only the value itself', () => {
    const errors = [
      error({ keyword: 'required', instancePath: '/proxy', params: { missingProperty: 'id' } }),
      error({ keyword: 'type', instancePath: '/items/0/name', params: { type: 'string' } }),
      error({ keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'a/b' } }),
    ];
    expect(toIssues(errors, {}, 'body', { prefixFields: false }).map((i) => i.message)).toEqual([
      'proxy.id: is required',
      'items[0].name: must be string',
      'a/b: is not a known property',
    ]);
    expect(
      toIssues([error({ keyword: 'type', params: { type: 'object' } })], 5, 'query', { prefixFields: false }),
    ).toEqual([{ field: 'query', rule: 'type', message: 'query: must be object' }]);
  });

  it('a wrong type is the one thing said about a value, whatever else failed on it', () => {
    const errors = [
      error({ keyword: 'type', instancePath: '/source', params: { type: 'string' } }),
      error({ keyword: 'enum', instancePath: '/source', params: { allowedValues: ['path'] } }),
      error({ keyword: 'required', instancePath: '', params: { missingProperty: 'path' } }),
    ];
    expect(toIssues(errors, { source: 5 }, 'query').map((i) => i.message)).toEqual([
      'query.source: must be string',
      'query.path: is required',
    ]);
  });

  it('takes the value from Ajv (verbose) when the caller gave none', () => {
    const long = error({ keyword: 'maxLength', instancePath: '/name', params: { limit: 2 }, data: 'abc' });
    expect(toIssues([long], undefined, 'body')[0]?.message).toBe('body.name: must be at most 2 characters (got 3)');
  });

  it('oneOf branches compiled as functions share schema paths: told apart by their one error each', () => {
    // Both branches refuse the other's property, with the same relative schemaPath.
    const both = [
      error({
        keyword: 'additionalProperties',
        instancePath: '/p',
        schemaPath: '#/additionalProperties',
        params: { additionalProperty: 'name' },
      }),
      error({
        keyword: 'additionalProperties',
        instancePath: '/p',
        schemaPath: '#/additionalProperties',
        params: { additionalProperty: 'id' },
      }),
      error({ keyword: 'oneOf', instancePath: '/p', schemaPath: '#/oneOf', params: { passingSchemas: null } }),
    ];
    expect(toIssues(both, { p: { id: 'a', name: 'b' } }, 'b')).toEqual([
      { field: 'b.p', rule: 'oneOf', message: 'b.p: must provide exactly one of "id" or "name"' },
    ]);
    // One branch refuses a property; the other stopped earlier, on a missing one.
    const extra = [
      error({
        keyword: 'additionalProperties',
        instancePath: '/p',
        schemaPath: '#/additionalProperties',
        params: { additionalProperty: 'port' },
      }),
      error({ keyword: 'required', instancePath: '/p', schemaPath: '#/required', params: { missingProperty: 'name' } }),
      error({ keyword: 'oneOf', instancePath: '/p', schemaPath: '#/oneOf', params: { passingSchemas: null } }),
    ];
    expect(toIssues(extra, { p: { id: 'a', port: 1 } }, 'b')).toEqual([
      { field: 'b.p.port', rule: 'additionalProperties', message: 'b.p.port: is not a known property' },
    ]);
  });

  it('an anyOf that failed on types only lists the types', () => {
    const errors = [
      error({ keyword: 'type', instancePath: '/v', params: { type: 'object' } }),
      error({ keyword: 'type', instancePath: '/v', params: { type: 'null' } }),
      error({ keyword: 'anyOf', instancePath: '/v' }),
    ];
    expect(toIssues(errors, { v: 1 }, 'body')[0]?.message).toBe('body.v: must be object or null');
  });

  it('oneOf matching several branches', () => {
    expect(toIssues([error({ keyword: 'oneOf', params: { passingSchemas: [0, 1] } })], {}, 'b')[0]?.message).toBe(
      'b: must match exactly one of the allowed shapes (matches 2)',
    );
  });
});

describe('one wording for the generated validators and for full Ajv over the document', () => {
  // The sandbox and the contract tests validate with a full Ajv over the document (every error,
  // verbose, formats); the client with the generated validators (first error, no messages).
  const document = loadOpenApiDocument();
  const generated: Record<string, Validator<unknown>> = {
    LoginRequest: validateLoginRequest,
    RenameProfileRequest: validateRenameProfileRequest,
    LogStreamQuery: validateLogStreamQuery,
    BrowserTelemetryRequestConfig: validateBrowserTelemetryRequestConfig,
  };
  // One mistake each: the generated validators stop at the first, full Ajv reports them all.
  const cases: [string, unknown][] = [
    ['LoginRequest', { proxy: { id: 'a', name: 'b' } }],
    ['LoginRequest', { proxy: {} }],
    ['LoginRequest', { proxy: { id: '' } }],
    ['LoginRequest', { proxy: { id: 'x', port: 1 } }],
    ['LoginRequest', { proxi: { id: 'x' } }],
    ['LoginRequest', { browser_telemetry: { enabled: false, browser: { console: { enabled: true } } } }],
    ['LoginRequest', { browser_telemetry: { browser: { cookies: { enabled: true } } } }],
    ['LoginRequest', { browser_telemetry: { browser: { console: { on: true } } } }],
    ['LoginRequest', { browser_telemetry: 'on' }],
    ['LoginRequest', { record_session: 'yes' }],
    ['RenameProfileRequest', { name: '' }],
    ['RenameProfileRequest', { name: 'n'.repeat(256) }],
    ['RenameProfileRequest', {}],
    ['LogStreamQuery', { source: 'path' }],
    ['LogStreamQuery', { source: 'supervisor', path: '/x' }],
    ['LogStreamQuery', { source: 'file' }],
    ['LogStreamQuery', { source: 5, path: '/x' }],
    ['BrowserTelemetryRequestConfig', 'on'],
    ['BrowserTelemetryRequestConfig', ['x']],
    ['BrowserTelemetryRequestConfig', { browser: { console: { enabled: 1 } } }],
  ];

  it('a value that is not an object, where an object with if/then rules was expected, must be object', () => {
    expect(validateBrowserTelemetryRequestConfig('on')).toBe(false);
    expect(toIssues(validateBrowserTelemetryRequestConfig.errors ?? [], 'on', 'browser_telemetry')).toEqual([
      { field: 'browser_telemetry', rule: 'type', message: 'browser_telemetry: must be object' },
    ]);
    expect(validateLoginRequest({ browser_telemetry: 'on' })).toBe(false);
    expect(toIssues(validateLoginRequest.errors ?? [], { browser_telemetry: 'on' }, 'body')[0]?.message).toBe(
      'body.browser_telemetry: must be object or null',
    );
  });

  it.each(cases)('%s %j', (name, value) => {
    const full = schemaValidator(document, `/components/schemas/${name}`);
    const fast = generated[name]!;
    expect(full(value)).toBe(false);
    expect(fast(value)).toBe(false);
    const fromFull = toIssues(full.errors ?? [], value, 'body');
    expect(fromFull.length).toBeGreaterThan(0);
    expect(fromFull).toEqual(toIssues(fast.errors ?? [], value, 'body'));
  });
});
