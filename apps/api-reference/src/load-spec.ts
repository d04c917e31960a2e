import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

/** An OpenAPI document as plain JSON data, ready to be embedded in the page. */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  info: Record<string, unknown> & { title: string; version: string };
};

/**
 * Reads an OpenAPI document (YAML or JSON) and returns it as plain data.
 *
 * The page embeds the document as it is, so a `$ref` to another file or URL could not be
 * resolved offline: such a document is rejected instead of rendering with holes.
 *
 * @throws Error when the file is not an OpenAPI 3.x document or refers outside itself.
 */
export async function loadSpec(specPath: string): Promise<OpenApiDocument> {
  const text = await readFile(specPath, 'utf8');
  const data: unknown = parse(text);
  if (!isOpenApiDocument(data)) {
    throw new Error(`${specPath} is not an OpenAPI 3.x document (no \`openapi\`, \`info.title\` or \`info.version\`).`);
  }
  const external = findExternalRefs(data);
  if (external.length > 0) {
    throw new Error(
      `${specPath} refers to other documents, which the offline page cannot load: ${external.join(', ')}`,
    );
  }
  return data;
}

function isOpenApiDocument(data: unknown): data is OpenApiDocument {
  if (!isRecord(data) || typeof data['openapi'] !== 'string' || !data['openapi'].startsWith('3.')) return false;
  const info = data['info'];
  return isRecord(info) && typeof info['title'] === 'string' && typeof info['version'] === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function findExternalRefs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) findExternalRefs(item, found);
  } else if (isRecord(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) found.push(child);
      else findExternalRefs(child, found);
    }
  }
  return found;
}
