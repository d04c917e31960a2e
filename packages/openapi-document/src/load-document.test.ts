import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OpenApiDocumentError } from './document-error.js';
import {
  loadOpenApiDocument,
  OPENAPI_PATH,
  parseOpenApiDocument,
  renderOpenApiDocument,
  writeRenderedDocument,
} from './load-document.js';

const HEAD = 'openapi: 3.1.0\ninfo: {title: T, version: "1"}\n';

describe('loadOpenApiDocument', () => {
  it("reads the repository's document", () => {
    expect(OPENAPI_PATH).toMatch(/\/openapi\/openapi\.yaml$/);
    const document = loadOpenApiDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Browser Cloud API');
    expect(Object.keys(document.paths ?? {})).toContain('/profiles/{id_or_name}');
  });

  it('reads another path, and passes a read error on as is', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'openapi-document-')), 'a.yaml');
    writeFileSync(path, `${HEAD}paths: {}\n`);
    expect(loadOpenApiDocument(path).paths).toEqual({});
    expect(() => loadOpenApiDocument('/nonexistent/openapi.yaml')).toThrow(/ENOENT/);
  });
});

describe('parseOpenApiDocument reads every YAML style into plain JSON data', () => {
  it('an aliased object is a copy at each place', () => {
    const text = `${HEAD}paths: {}\ncomponents:\n  schemas:\n    A: &s {type: string}\n    B: *s\n`;
    const schemas = parseOpenApiDocument(text, 'x.yaml').components?.schemas ?? {};
    expect(schemas['B']).toEqual({ type: 'string' });
    expect(schemas['B']).not.toBe(schemas['A']);
  });
});

describe('parseOpenApiDocument refuses, naming the source and the rule', () => {
  it.each([
    ['not YAML', 'openapi: [3.1', /x\.yaml is not valid YAML/],
    ['a list', '- 1\n- 2\n', /x\.yaml is not an OpenAPI 3\.x document: the top level must be an object/],
    ['Swagger 2', 'swagger: "2.0"\ninfo: {title: T, version: "1"}\n', /`openapi` must be a version string 3\.x\.y/],
    ['a numeric version', 'openapi: 3.1\ninfo: {title: T, version: "1"}\n', /`openapi` must be a version string/],
    ['no info', 'openapi: 3.1.0\n', /`info` must be an object/],
    ['no title', 'openapi: 3.1.0\ninfo: {version: "1"}\n', /`info\.title` must be a string/],
    ['a numeric info.version', 'openapi: 3.1.0\ninfo: {title: T, version: 1}\n', /`info\.version` must be a string/],
    ['paths as a list', `${HEAD}paths: []\n`, /`paths` must be an object/],
    ['components as a string', `${HEAD}components: x\n`, /`components` must be an object/],
  ])('%s', (_name, text, message) => {
    expect(() => parseOpenApiDocument(text, 'x.yaml')).toThrow(OpenApiDocumentError);
    expect(() => parseOpenApiDocument(text, 'x.yaml')).toThrow(message);
  });

  it('a reference to another file, at any depth', () => {
    const schemas =
      '    A: {$ref: "./common.yaml#/A"}\n    B: {$ref: "#/components/schemas/A"}\n    C: {allOf: [{$ref: "https://x/y"}]}\n';
    expect(() => parseOpenApiDocument(`${HEAD}paths: {}\ncomponents:\n  schemas:\n${schemas}`, 'split.yaml')).toThrow(
      'split.yaml refers to other documents, which are not loaded (only local $refs resolve): ./common.yaml#/A, https://x/y',
    );
  });

  it('YAML that the tools would read differently, naming the file, line and column of each construct', () => {
    const text = `${HEAD}paths: {}\nx-base: &b {a: 1}\nx-merged:\n  <<: *b\nx-number: .inf\n`;
    expect(() => parseOpenApiDocument(text, 'styled.yaml')).toThrow(
      [
        'styled.yaml uses YAML that the tools would read differently:',
        '  styled.yaml:6:3 the merge key `<<` (YAML 1.1) is merged by Redocly and kept as a key named "<<" by the loader and Prism: write the keys out, or use a $ref',
        '  styled.yaml:7:11 .inf is a number JSON cannot hold (JSON tools read it as null)',
      ].join('\n'),
    );
  });

  it('an anchor used by aliases 1000 times or more, a guard against alias bombs', () => {
    const text = (uses: number) => `${HEAD}x-a: &a [1]\nx-b: [${Array(uses).fill('*a').join(', ')}]\n`;
    expect(parseOpenApiDocument(text(999), 'many.yaml')['x-b']).toHaveLength(999);
    expect(() => parseOpenApiDocument(text(1000), 'bomb.yaml')).toThrow(
      /^bomb\.yaml cannot be read: Excessive alias count/,
    );
  });

  it('accepts a minimal 3.0 or 3.1 document', () => {
    expect(parseOpenApiDocument(HEAD, 'x.yaml').info.version).toBe('1');
    expect(parseOpenApiDocument('openapi: 3.0.3\ninfo: {title: T, version: "1"}\n', 'x').openapi).toBe('3.0.3');
  });
});

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
