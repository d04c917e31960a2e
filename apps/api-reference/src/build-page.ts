import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { findRemoteReferences } from './find-remote-references.js';
import { renderReferenceHtml } from './render-html.js';
import { loadRendererBundle } from './renderer-bundle.js';

/** Where to read the document and write the page. */
export interface BuildPageOptions {
  /** The OpenAPI document, YAML or JSON. */
  readonly specPath: string;
  /** The HTML file to write; its folder is created. */
  readonly outFile: string;
  /** A Redoc standalone build to inline instead of the installed `redoc` package's. */
  readonly rendererBundlePath?: string;
  /** Page title; defaults to the document's title and version. */
  readonly title?: string;
}

/** What was written. */
export interface BuiltPage {
  readonly outFile: string;
  readonly bytes: number;
  /** e.g. `redoc 2.5.4`. */
  readonly renderer: string;
}

/**
 * Builds the offline API reference: one HTML file holding the renderer's script and the
 * document, which needs no network to display.
 *
 * @throws OpenApiDocumentError when the document cannot be embedded, Error when or the page would still load something
 *   from the network (then nothing is written).
 */
export async function buildReferencePage(options: BuildPageOptions): Promise<BuiltPage> {
  // The page embeds the document as it is: the loader refuses a `$ref` to another file or URL,
  // which could not be resolved offline, rather than render with holes.
  const spec = loadOpenApiDocument(options.specPath);
  const renderer = await loadRendererBundle(options.rendererBundlePath);
  const html = renderReferenceHtml({
    spec,
    renderer,
    ...(options.title === undefined ? {} : { title: options.title }),
  });
  // The page holds the document with `<` escaped, so HTML in its descriptions (which Redoc
  // renders) is scanned in the document itself.
  const remote = [...findRemoteReferences(html), ...findRemoteReferences(JSON.stringify(spec))];
  if (remote.length > 0) {
    const list = remote.map((reference) => `  ${reference.kind}: ${reference.text}`).join('\n');
    throw new Error(`The page would load resources from the network, so it was not written:\n${list}`);
  }
  await mkdir(dirname(options.outFile), { recursive: true });
  await writeFile(options.outFile, html, 'utf8');
  return { outFile: options.outFile, bytes: Buffer.byteLength(html), renderer: `${renderer.name} ${renderer.version}` };
}
