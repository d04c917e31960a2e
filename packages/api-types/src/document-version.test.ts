import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { DOCUMENT_VERSION } from './index.js';

describe('DOCUMENT_VERSION', () => {
  it("is the document's info.version", () => {
    expect(DOCUMENT_VERSION).toBe(loadOpenApiDocument().info.version);
  });
});
