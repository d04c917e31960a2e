import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import { readYaml, YamlReadError } from './read-yaml.js';

/**
 * The repository's `openapi/openapi.yaml`, read in place (never copied). This file sits at the
 * same depth in `src/` and `dist/`, so one relative URL serves tests and built code alike.
 */
export const OPENAPI_PATH = fileURLToPath(new URL('../../../openapi/openapi.yaml', import.meta.url));

/**
 * Reads and parses an OpenAPI document (YAML or JSON) and checks its basic shape.
 * @param path the repository's document when absent.
 * @throws the read error (ENOENT…) as is, or OpenApiDocumentError for anything else.
 */
export function loadOpenApiDocument(path: string = OPENAPI_PATH): OpenApiDocument {
  return parseOpenApiDocument(readFileSync(path, 'utf8'), path);
}

/**
 * Parses a document's text as `readYaml` reads it and checks its basic shape (see shapeProblem)
 * and that no `$ref` names another file or URL: only local references resolve, here and in every consumer.
 * @param source names the document in errors (its path).
 */
export function parseOpenApiDocument(text: string, source: string): OpenApiDocument {
  let data: unknown;
  try {
    data = readYaml(text).data;
  } catch (error) {
    if (!(error instanceof YamlReadError)) {
      throw new OpenApiDocumentError(`${source} cannot be read: ${(error as Error).message}`, { cause: error });
    }
    const syntax = error.problems.some((p) => p.construct === 'syntax');
    const list = error.problems.map((p) => `\n  ${source}:${p.line}:${p.column} ${p.message}`).join('');
    throw new OpenApiDocumentError(
      syntax
        ? `${source} is not valid YAML:${list}`
        : `${source} uses YAML that the tools would read differently:${list}`,
      { cause: error },
    );
  }
  const problem = shapeProblem(data);
  if (problem !== undefined) throw new OpenApiDocumentError(`${source} is not an OpenAPI 3.x document: ${problem}`);
  // Every `$ref` to another document, at any depth: stringify visits every key.
  const external: string[] = [];
  JSON.stringify(data, (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) external.push(value);
    return value;
  });
  if (external.length > 0) {
    throw new OpenApiDocumentError(
      `${source} refers to other documents, which are not loaded (only local $refs resolve): ${external.join(', ')}`,
    );
  }
  return data as OpenApiDocument;
}

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

function shapeProblem(data: unknown): string | undefined {
  if (!isRecord(data)) return 'the top level must be an object';
  const version = data['openapi'];
  if (typeof version !== 'string' || !/^3\.\d+\.\d+/.test(version)) return '`openapi` must be a version string 3.x.y';
  const info = data['info'];
  if (!isRecord(info)) return '`info` must be an object';
  if (typeof info['title'] !== 'string') return '`info.title` must be a string';
  if (typeof info['version'] !== 'string') return '`info.version` must be a string';
  for (const key of ['paths', 'components'] as const) {
    if (key in data && !isRecord(data[key])) return `\`${key}\` must be an object`;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
