import { describe, expect, it } from 'vitest';
import { ajvRef, createAjv, documentAjv, schemaValidator } from './document-ajv.js';
import type { OpenApiDocument } from './document-types.js';
import { loadOpenApiDocument } from './load-document.js';

const document = loadOpenApiDocument();
const PROFILE = '/components/schemas/Profile';

describe('createAjv', () => {
  it('asserts the standard formats and reports every error', () => {
    const validate = createAjv().compile({
      type: 'object',
      properties: { at: { type: 'string', format: 'date-time' }, url: { type: 'string', format: 'uri' } },
    });
    expect(validate({ at: '2026-01-01T00:00:00Z', url: 'https://a.example/' })).toBe(true);
    expect(validate({ at: 'yesterday', url: 'nope' })).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.keyword} ${String(e.params['format'])}`)).toEqual([
      '/at format date-time',
      '/url format uri',
    ]);
  });
});

describe('ajvRef', () => {
  it('names a place of the registered document, tokens percent-encoded', () => {
    expect(ajvRef('/components/schemas/Profile')).toBe('openapi.json#/components/schemas/Profile');
    expect(ajvRef('#/paths/~1profiles~1{id}/patch')).toBe('openapi.json#/paths/~1profiles~1%7Bid%7D/patch');
  });
});

describe('schemaValidator over the real document', () => {
  it('compiles a schema once per document', () => {
    expect(schemaValidator(document, PROFILE)).toBe(schemaValidator(document, PROFILE));
    expect(schemaValidator(loadOpenApiDocument(), PROFILE)).not.toBe(schemaValidator(document, PROFILE));
    expect(documentAjv(document)).toBe(documentAjv(document));
  });

  it('asserts formats (date-time, uri) with messages, and every error', () => {
    const login = schemaValidator(document, '#/components/schemas/LoginResponse');
    expect(login({ id: 'ac', flow_type: 'LOGIN', hosted_url: 'nope', flow_expires_at: 'tomorrow' })).toBe(false);
    expect(login.errors).toMatchObject([
      { keyword: 'format', instancePath: '/hosted_url', message: 'must match format "uri"' },
      { keyword: 'format', instancePath: '/flow_expires_at', message: 'must match format "date-time"' },
    ]);
    const event = schemaValidator(document, '/components/schemas/LogEvent');
    expect(event({ event: 'log', timestamp: 'yesterday', message: 'm' })).toBe(false);
    expect(event.errors).toMatchObject([{ keyword: 'format', instancePath: '/timestamp' }]);
    expect(event({ event: 'log', timestamp: '2026-01-01T00:00:00.5Z', message: 'm' })).toBe(true);
    const profile = schemaValidator(document, PROFILE);
    expect(profile({ id: 'p', name: null, created_at: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(profile({ id: 'p', name: null, created_at: 'yesterday' })).toBe(false);
  });

  it('validates a schema written in an operation, through the encoded pointer', () => {
    const validate = schemaValidator(
      document,
      '/paths/~1profiles~1{id_or_name}/patch/requestBody/content/application~1json/schema',
    );
    expect(validate({ name: 'a' })).toBe(true);
    expect(validate({ name: '' })).toBe(false);
  });

  it('refuses a pointer the document does not have', () => {
    expect(() => schemaValidator(document, '/components/schemas/Nothing')).toThrow(
      'the OpenAPI document has no schema at "/components/schemas/Nothing"',
    );
  });
});

describe('documentAjv', () => {
  it('refuses a document that is not OpenAPI 3.1', () => {
    const old: OpenApiDocument = { openapi: '3.0.3', info: { title: 'T', version: '1' } };
    expect(() => documentAjv(old)).toThrow(/OpenAPI 3\.0\.3 are not JSON Schema 2020-12/);
    expect(() => schemaValidator(old, '/info')).toThrow(/OpenAPI 3\.0\.3 are not JSON Schema 2020-12/);
  });
});
