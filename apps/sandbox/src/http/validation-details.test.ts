import type { ValidateFunction } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import { createAjv, loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { openApiValidatorCompiler } from '../openapi/validator-compiler.js';
import { validationDetails, validationMessage } from './validation-details.js';

// The validators the server uses: Ajv over the registered document, all errors, verbose.
const compile = openApiValidatorCompiler(loadOpenApiDocument());
const validator = (name: string, httpPart: string) =>
  compile({
    schema: { $ref: `openapi.json#/components/schemas/${name}` },
    method: 'POST',
    url: '/',
    httpPart,
  }) as ValidateFunction;
const validateLoginRequest = validator('LoginRequest', 'body');
const validateLogStreamQuery = validator('LogStreamQuery', 'querystring');

const messages = (
  errors: Parameters<typeof validationDetails>[0],
  part: Parameters<typeof validationDetails>[1] = 'body',
) => validationDetails(errors, part).map((d) => d.message);

describe('validationDetails', () => {
  it('names nested fields with dots and required or extra properties by name', () => {
    expect(validateLoginRequest({ proxy: { id: '' }, extra: true })).toBe(false);
    expect(messages(validateLoginRequest.errors ?? []).sort()).toEqual([
      'extra: is not a known property',
      'proxy.id: must not be empty',
    ]);
  });

  it('says "exactly one of" for a oneOf of closed objects', () => {
    expect(validateLoginRequest({ proxy: { id: 'a', name: 'b' } })).toBe(false);
    expect(messages(validateLoginRequest.errors ?? [])).toEqual(['proxy: must provide exactly one of "id" or "name"']);
  });

  it('drops the if of an if/then and the null branch of an anyOf', () => {
    expect(validateLogStreamQuery({ source: 'supervisor' })).toBe(false);
    expect(messages(validateLogStreamQuery.errors ?? [], 'querystring')).toEqual(['supervisor_process: is required']);
    expect(validateLoginRequest({ browser_telemetry: { browser: { nope: { enabled: true } } } })).toBe(false);
    expect(messages(validateLoginRequest.errors ?? [])).toEqual([
      'browser_telemetry.browser.nope: is not a known property',
    ]);
  });

  it('every detail is an invalid_input', () => {
    expect(validateLoginRequest({ record_session: 1 })).toBe(false);
    expect(validationDetails(validateLoginRequest.errors ?? [], 'body')).toEqual([
      { code: 'invalid_input', message: 'record_session: must be boolean' },
    ]);
  });

  it('names the root after the part, and unescapes JSON pointer tokens', () => {
    const ajv = createAjv({ strict: false });
    const validate = ajv.compile({
      type: 'object',
      properties: { 'a/b': { type: 'object', properties: { 'c~d': { type: 'string' } } } },
    });
    validate({ 'a/b': { 'c~d': 1 } });
    expect(messages(validate.errors ?? [])).toEqual(['a/b.c~d: must be string']);
    validate(5);
    expect(messages(validate.errors ?? [], 'querystring')).toEqual(['query: must be object']);
  });

  it('names the root of every request part as the client names it', () => {
    const ajv = createAjv({ strict: false });
    const validate = ajv.compile({ type: 'object' });
    validate(5);
    const errors = validate.errors ?? [];
    expect(messages(errors, 'body')).toEqual(['body: must be object']);
    expect(messages(errors, 'params')).toEqual(['path: must be object']);
    expect(messages(errors, 'headers')).toEqual(['headers: must be object']);
  });
});

describe('validationMessage', () => {
  it('says which part of the request is invalid', () => {
    expect(validationMessage('body')).toBe('the request body is invalid');
    expect(validationMessage('querystring')).toBe('the query is invalid');
    expect(validationMessage('params')).toBe('the path is invalid');
    expect(validationMessage('headers')).toBe('the request headers are invalid');
  });
});
