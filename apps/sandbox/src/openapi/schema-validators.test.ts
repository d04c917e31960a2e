import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from './document.js';
import { schemaValidator } from './schema-validators.js';

const document = loadOpenApiDocument();
const PROFILE = '/components/schemas/Profile';

describe('schemaValidator', () => {
  it('compiles a schema once per document', () => {
    expect(schemaValidator(document, PROFILE)).toBe(schemaValidator(document, PROFILE));
    expect(schemaValidator(loadOpenApiDocument(), PROFILE)).not.toBe(schemaValidator(document, PROFILE));
  });

  it('asserts formats and gives messages', () => {
    const validate = schemaValidator(document, PROFILE);
    expect(validate({ id: 'p', name: null, created_at: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(validate({ id: 'p', name: null, created_at: 'yesterday' })).toBe(false);
    expect(validate.errors).toMatchObject([
      { keyword: 'format', instancePath: '/created_at', message: 'must match format "date-time"' },
    ]);
  });

  it('refuses a pointer the document does not have', () => {
    expect(() => schemaValidator(document, '/components/schemas/Nothing')).toThrow();
  });
});
