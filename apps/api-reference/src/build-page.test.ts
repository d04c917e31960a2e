import { access, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReferencePage } from './build-page.js';
import { DEFAULT_SPEC_PATH } from './default-paths.js';
import { findRemoteReferences } from './find-remote-references.js';
import { SPEC_ELEMENT_ID } from './render-html.js';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'api-reference-'));
}

describe('buildReferencePage', () => {
  it("writes one self-contained page of the project's document, creating the folder", async () => {
    const outFile = join(await tempDir(), 'nested', 'index.html');
    const page = await buildReferencePage({ specPath: DEFAULT_SPEC_PATH, outFile });
    const html = await readFile(outFile, 'utf8');
    expect(page).toEqual({ outFile, bytes: Buffer.byteLength(html), renderer: expect.stringMatching(/^redoc 2\./) });
    expect(findRemoteReferences(html)).toEqual([]);
    // Parts of the page, never the page itself: a failure shows a short diff, not a megabyte of HTML.
    const document = loadOpenApiDocument(DEFAULT_SPEC_PATH);
    expect(html.match(/<title>([^<]*)<\/title>/)?.[1]).toBe(
      `${document.info.title} ${document.info.version} — API reference`,
    );
    const embedded = html.match(new RegExp(`<script type="application/json" id="${SPEC_ELEMENT_ID}">([^<]*)</script>`));
    expect(JSON.parse(embedded?.[1] ?? 'null')).toEqual(document);
  });

  it('refuses, and writes nothing, when the renderer would load a font from the network', async () => {
    const dir = await tempDir();
    const bundle = join(dir, 'bad-renderer.js');
    await writeFile(
      bundle,
      'window.Redoc = { init() {} }; const font = "https://fonts.gstatic.com/s/roboto/v30/x.woff2";',
    );
    const outFile = join(dir, 'index.html');
    await expect(
      buildReferencePage({ specPath: DEFAULT_SPEC_PATH, outFile, rendererBundlePath: bundle }),
    ).rejects.toThrow(/load resources from the network[\s\S]*asset-url: "https:\/\/fonts\.gstatic\.com/);
    await expect(access(outFile)).rejects.toThrow(/ENOENT/);
  });

  it('refuses, and writes nothing, when the file is not an OpenAPI document or refers to another file', async () => {
    const dir = await tempDir();
    const outFile = join(dir, 'index.html');
    const swagger = join(dir, 'swagger.yaml');
    await writeFile(swagger, 'swagger: "2.0"\ninfo: {title: T, version: "1"}\n');
    await expect(buildReferencePage({ specPath: swagger, outFile })).rejects.toThrow(/not an OpenAPI 3\.x document/);
    const split = join(dir, 'split.yaml');
    await writeFile(split, 'openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths:\n  /a: {$ref: "./a.yaml"}\n');
    await expect(buildReferencePage({ specPath: split, outFile })).rejects.toThrow(/other documents.*\.\/a\.yaml/);
    await expect(access(outFile)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a document with a remote image in its markdown', async () => {
    const dir = await tempDir();
    const specPath = join(dir, 'openapi.json');
    await writeFile(
      specPath,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'T', version: '1', description: '![logo](https://example.com/logo.png)' },
        paths: {},
      }),
    );
    await expect(buildReferencePage({ specPath, outFile: join(dir, 'index.html') })).rejects.toThrow(
      /example\.com\/logo\.png/,
    );
  });
});
