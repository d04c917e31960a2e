import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OpenApiDocument } from './document-types.js';
import { loadOpenApiDocument } from './load-document.js';

/**
 * The document as JSON text, exactly as the loader read it: what tools that read a file get
 * (Prism, `redocly diff`), so that they see the same content however the YAML is written. Their
 * own YAML parsers misread some valid YAML (Prism drops the last line break of a `|+` block,
 * `redocly diff` takes an alias for a removal); JSON they read as written.
 */
export function renderOpenApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Loads the document at `path` (YAML or JSON) and writes its JSON rendering to `outFile`,
 * creating the folder. @returns `outFile`.
 * @throws what loadOpenApiDocument throws; nothing is written then.
 */
export function writeRenderedDocument(path: string, outFile: string): string {
  const json = renderOpenApiDocument(loadOpenApiDocument(path));
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, json);
  return outFile;
}
