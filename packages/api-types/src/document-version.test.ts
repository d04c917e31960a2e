import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { DOCUMENT_VERSION } from './index.js';

describe('DOCUMENT_VERSION', { timeout: 30_000 }, () => {
  it("is the document's info.version", () => {
    expect(DOCUMENT_VERSION).toBe(loadOpenApiDocument().info.version);
  });

  it("is the package's version: `npm run release` sets both from the document", () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(manifest.version).toBe(DOCUMENT_VERSION);
  });
});
