import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from './load-document.js';
import { renderOpenApiDocument, writeRenderedDocument } from './render-document.js';

describe('the JSON rendering', () => {
  it("is the repository's document as the loader reads it", () => {
    const document = loadOpenApiDocument();
    expect(JSON.parse(renderOpenApiDocument(document))).toEqual(document);
  });

  it('keeps every character of a string: trailing blank lines, escapes, astral characters', () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-document-'));
    const source = join(dir, 'styled.yaml');
    writeFileSync(
      source,
      'openapi: 3.1.0\ninfo: {title: "T \\u00e9 \\U0001F600", version: "1"}\nx-stream: |+\n  id: 1\n\n  id: 2\n\n\nx-b: &b {k: [1]}\nx-c: *b\n',
    );
    const out = writeRenderedDocument(source, join(dir, 'out', 'openapi.json'));
    expect(out).toBe(join(dir, 'out', 'openapi.json'));
    const text = readFileSync(out, 'utf8');
    expect(text).toBe(renderOpenApiDocument(loadOpenApiDocument(source)));
    expect(JSON.parse(text)).toEqual({
      openapi: '3.1.0',
      info: { title: 'T é 😀', version: '1' },
      'x-stream': 'id: 1\n\nid: 2\n\n\n',
      'x-b': { k: [1] },
      'x-c': { k: [1] },
    });
  });

  it('writes nothing for a document the loader refuses', () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-document-'));
    const source = join(dir, 'bad.yaml');
    writeFileSync(source, 'openapi: 3.1.0\ninfo: {title: T, version: "1"}\nx: !!binary aGk=\n');
    expect(() => writeRenderedDocument(source, join(dir, 'out.json'))).toThrow(/bad\.yaml:3:13 the tag !!binary/);
    expect(() => readFileSync(join(dir, 'out.json'))).toThrow(/ENOENT/);
  });
});
