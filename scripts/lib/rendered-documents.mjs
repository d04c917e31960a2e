// Tools that read a document file get the loader's reading of it as JSON (see
// renderOpenApiDocument), and what they say about a place in that JSON is mapped back to the
// YAML file a person edits.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { readYaml, writeRenderedDocument } from '@browser-cloud/openapi-document';

/**
 * Writes the JSON rendering of each document (paths relative to `cwd`) into a fresh temporary
 * folder. `relocate(location)` turns a `{ file, line, col, pointer }` that names a rendering
 * into the same place in its source: the file as given, and the line and column where the
 * pointer's value starts there (through an alias, in its anchor).
 * @throws OpenApiDocumentError when the loader refuses a document (nothing is left behind).
 */
export function renderDocuments(paths, { cwd = process.cwd() } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-rendered-'));
  const sources = new Map();
  try {
    const files = paths.map((path, i) => {
      const file = join(dir, String(i), `${basename(path, extname(path))}.json`);
      writeRenderedDocument(resolve(cwd, path), file);
      // Read again only when a location must be mapped (most runs map none).
      let reading;
      const locate = (pointer) => {
        reading ??= readYaml(readFileSync(resolve(cwd, path), 'utf8'));
        return reading.locate(pointer);
      };
      sources.set(file, { path, locate });
      return file;
    });
    return {
      files,
      relocate(location) {
        const source = location?.file === undefined ? undefined : sources.get(resolve(cwd, location.file));
        if (!source) return location;
        const { line, column } = source.locate(location.pointer ?? '');
        return { ...location, file: source.path, line, col: column };
      },
      dispose: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
