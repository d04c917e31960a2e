// The same content written in several YAML styles gives the same result from every tool that
// reads the document: the generators, the breaking-change gate, the lint and the mock.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrism } from '@browser-cloud/mock';
import {
  deref,
  loadOpenApiDocument,
  type OpenApiDocument,
  operations,
  renderOpenApiDocument,
} from '@browser-cloud/openapi-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generateArtifacts as generateCliArtifacts } from '../packages/cli/scripts/command-definitions.mjs';
import { generateArtifacts as generateClientArtifacts } from '../packages/client/scripts/client-operations.mjs';
import { generateArtifacts as generateMcpArtifacts } from '../packages/mcp/scripts/tool-definitions.mjs';
import { checkApiChanges } from '../scripts/lib/api-changes.mjs';
import { generateArtifacts } from '@browser-cloud/tooling/generate-artifacts';
import { lintFiles, REPO_ROOT } from './lint/run-redocly.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Equal objects and arrays become one object, so that the stringifier writes anchors and aliases. */
function shareEqualObjects(data: Json): Json {
  const seen = new Map<string, Json>();
  const share = (node: Json): Json => {
    if (node === null || typeof node !== 'object') return node;
    const copy = Array.isArray(node)
      ? node.map(share)
      : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, share(v)]));
    const key = JSON.stringify(copy);
    if (!seen.has(key)) seen.set(key, copy);
    return seen.get(key)!;
  };
  return share(data);
}

/**
 * The fields of every OpenAPI object in reverse order. Schemas, examples and the maps keyed by
 * names (paths, responses, content…) keep theirs: the generated code carries them (a schema is
 * copied verbatim into the validators and the MCP tool definitions; properties and paths are
 * listed in the document's order), so their order is part of the content.
 */
function reverseFields(data: Json): Json {
  const NAMED = new Set(['paths', 'responses', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'content']);
  const VERBATIM = new Set(['schema', 'schemas', 'x-sse-event-data', 'value', 'example']);
  const walk = (node: Json, named: boolean): Json => {
    if (Array.isArray(node)) return node.map((item) => walk(item, false));
    if (node === null || typeof node !== 'object') return node;
    const entries = named ? Object.entries(node) : Object.entries(node).reverse();
    return Object.fromEntries(
      entries.map(([k, v]) => [k, named ? walk(v, false) : VERBATIM.has(k) ? v : walk(v, NAMED.has(k))]),
    );
  };
  return walk(data, false);
}

/** Each style, and a fragment of its text that shows the style is really used. */
const STYLES: Record<string, { write: (data: Json) => string; shows: RegExp[] }> = {
  anchorsAndAliases: { write: (data) => stringify(shareEqualObjects(data)), shows: [/: &a\d+\n/, /: \*a\d+\n/] },
  blockScalars: {
    write: (data) => stringify(data, { blockQuote: 'literal', defaultStringType: 'BLOCK_LITERAL' }),
    shows: [/: \|\+\n/, /: \|-\n/, /: \|\n/],
  },
  foldedScalars: {
    // At the default line width: at 40, yaml 2.9 writes some long words with a line break before them.
    write: (data) => stringify(data, { blockQuote: 'folded', defaultStringType: 'BLOCK_FOLDED' }),
    shows: [/: >\n/, /: >-\n/],
  },
  flow: {
    write: (data) => stringify(data, { collectionStyle: 'flow' }),
    shows: [/^\{\n {2}openapi: [\d.]+,\n {2}info:\n {4}\{/],
  },
  quoted: {
    write: (data) =>
      stringify(data, { defaultStringType: 'QUOTE_SINGLE', defaultKeyType: 'QUOTE_DOUBLE', blockQuote: false }),
    shows: [/^"openapi": '[\d.]+'\n/m, /: '[^'\n]+\n/],
  },
  plainAndDoubleQuoted: {
    // Plain scalars where they can be; a string with line breaks double-quoted over several lines.
    write: (data) => stringify(data, { blockQuote: false, lineWidth: 0 }),
    shows: [/^ {2}title: [^"'|>\n]+$/m, /^ {2}description: "[^"\n]*\n\n/m],
  },
  json: { write: (data) => JSON.stringify(data, null, 1), shows: [/^\{\n "openapi": "[\d.]+",/] },
  otherKeyOrder: { write: (data) => stringify(reverseFields(data)), shows: [/^components:\n/] },
};

// A copy of the repository's lint setup (config, plugin, ignore file) around the styled files.
const root = mkdtempSync(join(tmpdir(), 'yaml-styles-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const original = loadOpenApiDocument();
const originalRendering = renderOpenApiDocument(original);
const paths: Record<string, string> = {};
mkdirSync(join(root, 'openapi/releases'), { recursive: true });
for (const [name, { write }] of Object.entries(STYLES)) {
  paths[name] = join(root, 'openapi', `${name}.yaml`);
  writeFileSync(paths[name], write(original as unknown as Json));
}

describe('the same content in several YAML styles', () => {
  it.each(Object.keys(STYLES))('%s is written in that style, and the loader reads the same content', (name) => {
    const text = readFileSync(paths[name]!, 'utf8');
    for (const shows of STYLES[name]!.shows) expect(text).toMatch(shows);
    const reading = loadOpenApiDocument(paths[name]);
    expect(reading).toEqual(original);
    // What Prism and `redocly diff` read: the same bytes, the key order aside.
    if (name !== 'otherKeyOrder') expect(renderOpenApiDocument(reading)).toBe(originalRendering);
  });

  it.each(Object.keys(STYLES))('%s generates the committed code (no drift)', async (name) => {
    for (const { path, contents } of [
      ...(await generateArtifacts(paths[name])),
      ...(await generateMcpArtifacts(paths[name])),
      ...(await generateCliArtifacts(paths[name])),
      ...(await generateClientArtifacts(paths[name])),
    ]) {
      expect(contents, path).toBe(readFileSync(path, 'utf8'));
    }
  });

  it('passes the lint, every style, with the repository rules and ignore list', async () => {
    const config = readFileSync(join(REPO_ROOT, 'redocly.yaml'), 'utf8').replaceAll(
      './openapi/',
      `${REPO_ROOT}/openapi/`,
    );
    writeFileSync(join(root, 'redocly.yaml'), config);
    const ignored = parse(readFileSync(join(REPO_ROOT, '.redocly.lint-ignore.yaml'), 'utf8'))['openapi/openapi.yaml'];
    const ignore = Object.fromEntries(Object.keys(STYLES).map((name) => [`openapi/${name}.yaml`, ignored]));
    writeFileSync(join(root, '.redocly.lint-ignore.yaml'), stringify(ignore));
    const results = await lintFiles(Object.values(paths), { cwd: root, config: join(root, 'redocly.yaml') });
    for (const [path, problems] of results) expect(problems, path).toEqual([]);
  });

  it.each([
    ['anchorsAndAliases', 'blockScalars'],
    ['otherKeyOrder', 'flow'],
  ])('the gate finds no change between the document as %s and its release as %s', (documentStyle, releaseStyle) => {
    const dir = join(root, `gate-${documentStyle}`);
    mkdirSync(join(dir, 'releases'), { recursive: true });
    copyFileSync(paths[documentStyle]!, join(dir, 'openapi.yaml'));
    writeFileSync(
      // A release of the document's own content in another style, so that only the styles
      // differ (the real snapshot may lag behind changes not released yet, which the gate reports).
      join(dir, 'releases', `${original.info.version}.yaml`),
      STYLES[releaseStyle]!.write(original as unknown as Json),
    );
    const result = checkApiChanges({ document: 'openapi.yaml', releasesDir: 'releases', cwd: dir });
    expect(result.changes).toEqual([]);
    expect(result.text).toContain('no changes');
    expect(result.ok).toBe(true);
  });
});

interface ServedExample {
  operation: string;
  path: string;
  method: string;
  status: string;
  mediaType: string;
  name: string;
  body: string | undefined;
  /** The bytes the mock must serve: the string itself, or the value as JSON. */
  expected: string;
}

/** Every named response example of `document`, with a request Prism accepts, built from the document's own examples. */
function servedExamples(document: OpenApiDocument): ServedExample[] {
  const found: ServedExample[] = [];
  for (const operation of operations(document)) {
    let path = operation.path;
    const query = new URLSearchParams();
    for (const { name, in: where, required, parameter } of operation.parameters) {
      if (where === 'path') path = path.replace(`{${name}}`, encodeURIComponent(String(parameter.example)));
      else if (where === 'query' && required) query.set(name, String(parameter.example));
    }
    const requestMedia = operation.requestBody?.content['application/json']?.media;
    const requestExample = Object.values(requestMedia?.examples ?? {})[0];
    const body =
      requestExample === undefined
        ? undefined
        : JSON.stringify(deref<{ value: unknown }>(document, requestExample as never).value);
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [mediaType, { media }] of Object.entries(response.content)) {
        for (const [name, example] of Object.entries(media.examples ?? {})) {
          const value = deref<{ value: unknown }>(document, example as never).value;
          found.push({
            operation: operation.operationId,
            path: `${path}${query.size > 0 ? `?${query}` : ''}`,
            method: operation.method.toUpperCase(),
            status,
            mediaType,
            name,
            body,
            expected: typeof value === 'string' && !mediaType.includes('json') ? value : JSON.stringify(value),
          });
        }
      }
    }
  }
  return found;
}

describe('the mock serves every example byte for byte as the loader reads it', () => {
  // Prism reads the JSON rendering, which is the same bytes for every style but the key order
  // (checked above): the block scalars (the `|+` stream example) and the other key order cover it.
  const served = ['blockScalars', 'otherKeyOrder'];
  const prisms: Record<string, Awaited<ReturnType<typeof startPrism>>> = {};
  beforeAll(async () => {
    for (const name of served) prisms[name] = await startPrism({ document: paths[name] });
  });
  afterAll(async () => {
    await Promise.all(Object.values(prisms).map((prism) => prism.stop()));
  });

  it.each(served)('%s', async (name) => {
    const examples = servedExamples(loadOpenApiDocument(paths[name]));
    // The event-stream examples among them: the bytes a `|+` block keeps.
    expect(examples.some((e) => e.mediaType === 'text/event-stream')).toBe(true);
    for (const example of examples) {
      const response = await fetch(`${prisms[name]!.url}${example.path}`, {
        method: example.method,
        headers: {
          authorization: 'Bearer test-token',
          accept: example.mediaType,
          prefer: `code=${example.status}, example=${example.name}`,
          ...(example.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(example.body === undefined ? {} : { body: example.body }),
      });
      const where = `${example.operation} ${example.status} ${example.mediaType} ${example.name}`;
      expect(response.status, where).toBe(Number(example.status));
      // Compared as text for a readable failure; a byte that is not UTF-8 would not decode to it.
      expect(Buffer.from(await response.arrayBuffer()).toString('utf8'), where).toBe(example.expected);
    }
  });
});
