import type { ErrorObject } from '@browser-cloud/api-types';
import {
  validateLoginAuthConnectionPath,
  validateLoginRequest,
  validateLogStreamQuery,
  validateProxyRef,
  validateRenameProfileRequest,
} from '@browser-cloud/api-types/validators';
import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { check, toIssues } from './validation.js';

function failure(run: () => void): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('check with the generated validators', () => {
  it('passes valid values through', () => {
    expect(() => check(validateLoginRequest, { proxy: { id: 'prx_1' }, record_session: true }, 'body')).not.toThrow();
    expect(() => check(validateLoginRequest, {}, 'body')).not.toThrow();
  });

  it('ProxyRef with both id and name: oneOf, exactly one of', () => {
    const error = failure(() => check(validateLoginRequest, { proxy: { id: 'a', name: 'b' } }, 'body'));
    expect(error).toMatchObject({ field: 'body.proxy', rule: 'oneOf' });
    expect(error.message).toBe('body.proxy: must provide exactly one of "id" or "name"');
    expect(error.issues).toHaveLength(1);
  });

  it('ProxyRef with neither id nor name: same rule', () => {
    const error = failure(() => check(validateLoginRequest, { proxy: {} }, 'body'));
    expect(error.message).toBe('body.proxy: must provide exactly one of "id" or "name"');
    expect(failure(() => check(validateProxyRef, {}, 'proxy')).message).toBe(
      'proxy: must provide exactly one of "id" or "name"',
    );
  });

  it('ProxyRef with an empty id reports the id, not the other branch', () => {
    const error = failure(() => check(validateLoginRequest, { proxy: { id: '' } }, 'body'));
    expect(error).toMatchObject({
      field: 'body.proxy.id',
      rule: 'minLength',
      message: 'body.proxy.id: must not be empty',
    });
  });

  it('ProxyRef with an unknown property reports that property', () => {
    const error = failure(() => check(validateLoginRequest, { proxy: { id: 'x', port: 1 } }, 'body'));
    expect(error).toMatchObject({
      field: 'body.proxy.port',
      rule: 'additionalProperties',
      message: 'body.proxy.port: is not a known property',
    });
  });

  it('unknown property at the top of a body', () => {
    const error = failure(() => check(validateLoginRequest, { proxi: { id: 'x' } }, 'body'));
    expect(error).toMatchObject({ field: 'body.proxi', rule: 'additionalProperties' });
  });

  it('enabled=false with browser categories, inside the nullable anyOf', () => {
    const error = failure(() =>
      check(
        validateLoginRequest,
        { browser_telemetry: { enabled: false, browser: { console: { enabled: true } } } },
        'body',
      ),
    );
    expect(error).toMatchObject({ field: 'body.browser_telemetry', rule: 'not' });
    expect(error.message).toBe(
      'body.browser_telemetry: these properties are not allowed in this combination (enabled=false, browser)',
    );
  });

  it('a category outside the nine, inside the nullable anyOf', () => {
    const error = failure(() =>
      check(validateLoginRequest, { browser_telemetry: { browser: { cookies: { enabled: true } } } }, 'body'),
    );
    expect(error.message).toBe('body.browser_telemetry.browser.cookies: is not a known property');
    expect(error.issues).toHaveLength(1);
  });

  it('a wrongly typed nullable field names the allowed types', () => {
    expect(failure(() => check(validateLoginRequest, { record_session: 'yes' }, 'body')).message).toBe(
      'body.record_session: must be boolean',
    );
  });

  it('profile names of 0 and 256 characters; 255 passes', () => {
    expect(failure(() => check(validateRenameProfileRequest, { name: '' }, 'body'))).toMatchObject({
      field: 'body.name',
      rule: 'minLength',
    });
    const long = failure(() => check(validateRenameProfileRequest, { name: 'n'.repeat(256) }, 'body'));
    expect(long).toMatchObject({ field: 'body.name', rule: 'maxLength' });
    expect(long.message).toBe('body.name: must be at most 255 characters (got 256)');
    expect(() => check(validateRenameProfileRequest, { name: 'n'.repeat(255) }, 'body')).not.toThrow();
  });

  it('missing name is required', () => {
    expect(failure(() => check(validateRenameProfileRequest, {}, 'body'))).toMatchObject({
      field: 'body.name',
      rule: 'required',
      message: 'body.name: is required',
    });
  });

  it('conditional requirements of the log query', () => {
    expect(failure(() => check(validateLogStreamQuery, { source: 'path' }, 'query'))).toMatchObject({
      field: 'query.path',
      rule: 'required',
    });
    expect(failure(() => check(validateLogStreamQuery, { source: 'supervisor', path: '/x' }, 'query'))).toMatchObject({
      field: 'query.supervisor_process',
      rule: 'required',
    });
    expect(failure(() => check(validateLogStreamQuery, { source: 'file' }, 'query')).message).toBe(
      'query.source: must be one of "path", "supervisor"',
    );
  });

  it('empty path id', () => {
    expect(failure(() => check(validateLoginAuthConnectionPath, { id: '' }, 'path'))).toMatchObject({
      field: 'path.id',
      rule: 'minLength',
      message: 'path.id: must not be empty',
    });
  });
});

describe('toIssues by keyword', () => {
  const error = (e: Partial<ErrorObject>): ErrorObject =>
    ({ instancePath: '', schemaPath: '#', params: {}, ...e }) as ErrorObject;

  it('format, const, type, unknown keywords and escaped pointers', () => {
    expect(
      toIssues([error({ keyword: 'format', instancePath: '/at', params: { format: 'date-time' } })], {}, 'x'),
    ).toEqual([{ field: 'x.at', rule: 'format', message: 'x.at: must be a valid date-time' }]);
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
    expect(toIssues([error({ keyword: 'pattern', message: 'must match pattern "^a"' })], {}, 'x')[0]?.message).toBe(
      'x: must match pattern "^a"',
    );
  });

  it('an unknown keyword without a message (the generated validators carry none) names the rule and its params', () => {
    expect(
      toIssues([error({ keyword: 'pattern', instancePath: '/a', params: { pattern: '^a' } })], {}, 'x')[0],
    ).toEqual({
      field: 'x.a',
      rule: 'pattern',
      message: 'x.a: breaks the "pattern" rule (pattern "^a")',
    });
    expect(toIssues([error({ keyword: 'minimum', params: { comparison: '>=', limit: 1 } })], {}, 'x')[0]?.message).toBe(
      'x: breaks the "minimum" rule (comparison ">=", limit 1)',
    );
    expect(toIssues([error({ keyword: 'false schema' })], {}, 'x')[0]?.message).toBe(
      'x: breaks the "false schema" rule',
    );
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
