import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OpenApiDocument } from './document-types.js';
import { loadOpenApiDocument } from './load-document.js';

/**
 * The document as JSON text, exactly as the loader read it, for tools that read a file (Prism,
 * `redocly diff`): their YAML parsers misread some valid YAML (Prism drops the last line break of
 * a `|+` block, `redocly diff` takes an alias for a removal); JSON they read as written.
 */
export function renderOpenApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Writes the JSON rendering of the document at `path` to `outFile` (nothing when it cannot be loaded); returns `outFile`. */
export function writeRenderedDocument(path: string, outFile: string): string {
  const json = renderOpenApiDocument(loadOpenApiDocument(path));
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, json);
  return outFile;
}
