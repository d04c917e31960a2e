// Loads the OpenAPI document once, as plain data, for the scripts and tests that read it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));

export function loadOpenApiDocument(path = OPENAPI_PATH) {
  return parse(readFileSync(path, 'utf8'));
}
