import { createHash } from 'node:crypto';
import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import type { RendererBundle } from './renderer-bundle.js';

/** What goes into the page. */
export interface PageContent {
  readonly spec: OpenApiDocument;
  readonly renderer: RendererBundle;
  /** Defaults to `<info.title> <info.version> — API reference`. */
  readonly title?: string;
}

/** Id of the `<script type="application/json">` element that holds the OpenAPI document. */
export const SPEC_ELEMENT_ID = 'openapi-document';

/**
 * Attribute set on `<html>` once the renderer has finished: `ready` or `error`. Lets a test (or a
 * person in the console) wait for the real end of rendering instead of guessing a delay.
 */
export const STATE_ATTRIBUTE = 'data-reference-state';

// Redoc 2 options. The Error schema and its siblings appear as a "Schemas" section, not only
// inside responses. The default theme names web fonts that an offline page cannot load, so the
// system's own fonts are named instead.
const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const REDOC_OPTIONS = {
  schemaDefinitionsTagName: 'Schemas',
  theme: {
    typography: { fontFamily: SYSTEM_FONTS, headings: { fontFamily: SYSTEM_FONTS } },
  },
};

/**
 * Renders the self-contained reference page: the renderer's script, the document as JSON and a
 * small start-up script, all inline. A Content-Security-Policy allows exactly these two scripts
 * (by hash), inline styles, and `data:`/`blob:` resources, so the browser itself refuses any
 * request to the network that a renderer might try.
 */
export function renderReferenceHtml({ spec, renderer, title }: PageContent): string {
  const pageTitle = title ?? `${spec.info.title} ${spec.info.version} — API reference`;
  const rendererScript = escapeScript(
    `/*! ${renderer.name} ${renderer.version}, inlined for offline use.\n${asComment(renderer.licenses)}\n*/\n${renderer.script}`,
  );
  const startScript = escapeScript(`(function () {
  var root = document.documentElement;
  try {
    var spec = JSON.parse(document.getElementById(${JSON.stringify(SPEC_ELEMENT_ID)}).textContent);
    Redoc.init(spec, ${JSON.stringify(REDOC_OPTIONS)}, document.getElementById('redoc'), function (error) {
      root.setAttribute(${JSON.stringify(STATE_ATTRIBUTE)}, error ? 'error' : 'ready');
    });
  } catch (error) {
    root.setAttribute(${JSON.stringify(STATE_ATTRIBUTE)}, 'error');
    throw error;
  }
})();`);
  const csp = [
    "default-src 'none'",
    `script-src ${scriptHash(rendererScript)} ${scriptHash(startScript)}`,
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    'font-src data:',
    // Redoc runs its search index in a worker made from a blob.
    'worker-src blob:',
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<title>${escapeHtml(pageTitle)}</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<noscript>This API reference needs JavaScript. The OpenAPI document itself is embedded in this file, in the script element #${SPEC_ELEMENT_ID}.</noscript>
<div id="redoc"></div>
<script type="application/json" id="${SPEC_ELEMENT_ID}">${escapeJson(JSON.stringify(spec))}</script>
<script>${rendererScript}</script>
<script>${startScript}</script>
</body>
</html>
`;
}

function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

// Inside <script>, only `</script` and `<!--`/`<script` (which can make the parser skip a
// `</script>`) are dangerous. `\x3C` is `<` in JS strings, regexes and templates alike.
function escapeScript(script: string): string {
  return script.replace(/<(?=!--|\/?script)/gi, '\\x3C');
}

// `<` never appears raw in JSON outside strings, and `\u003c` is the same character inside them.
function escapeJson(json: string): string {
  return json.replace(/</g, '\\u003c');
}

function asComment(text: string): string {
  return text.replace(/\*\//g, '* /');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
