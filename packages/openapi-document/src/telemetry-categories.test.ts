import { describe, expect, it } from 'vitest';
import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import { generationProblems } from './generation-check.js';
import { loadOpenApiDocument } from './load-document.js';
import { TELEMETRY_CATEGORIES_SCHEMA, telemetryCategories } from './telemetry-categories.js';

const withCategories = (properties: Record<string, unknown>): OpenApiDocument =>
  ({
    openapi: '3.1.0',
    info: { title: 't', version: '1.0.0' },
    paths: {},
    components: { schemas: { [TELEMETRY_CATEGORIES_SCHEMA]: { type: 'object', properties } } },
  }) as OpenApiDocument;

describe('telemetryCategories', () => {
  it("reads the repository's categories in order, each with its x-default-enabled", () => {
    const categories = telemetryCategories(loadOpenApiDocument());
    expect(categories.length).toBeGreaterThan(0);
    const schema = loadOpenApiDocument().components?.schemas?.[TELEMETRY_CATEGORIES_SCHEMA] as {
      properties: Record<string, { 'x-default-enabled': boolean }>;
    };
    expect(categories).toEqual(
      Object.entries(schema.properties).map(([name, property]) => ({
        name,
        defaultEnabled: property['x-default-enabled'],
      })),
    );
  });

  it('gives none for a document without the schema', () => {
    expect(telemetryCategories({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} })).toEqual([]);
  });

  it('takes true and false as they are', () => {
    const document = withCategories({ a: { 'x-default-enabled': false }, b: { 'x-default-enabled': true } });
    expect(telemetryCategories(document)).toEqual([
      { name: 'a', defaultEnabled: false },
      { name: 'b', defaultEnabled: true },
    ]);
  });

  it.each([
    ['missing', {}],
    ['a string', { 'x-default-enabled': 'true' }],
    ['null', { 'x-default-enabled': null }],
  ])('refuses an x-default-enabled that is %s, naming the place; the generators refuse the document', (_, property) => {
    const document = withCategories({ ok: { 'x-default-enabled': true }, console: property });
    const at = `/components/schemas/${TELEMETRY_CATEGORIES_SCHEMA}/properties/console`;
    const pointer = 'x-default-enabled' in property ? `${at}/x-default-enabled` : at;
    let error: unknown;
    try {
      telemetryCategories(document);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(OpenApiDocumentError);
    expect(error).toMatchObject({
      pointer,
      message: expect.stringMatching(/x-default-enabled at .*\/console must be true or false/),
    });
    expect(generationProblems(document)).toContainEqual({ message: expect.stringMatching(/console/), pointer });
  });
});
