import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import { renderReferenceHtml, SPEC_ELEMENT_ID } from './render-html.js';
import type { RendererBundle } from './renderer-bundle.js';

const spec: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'T <&> "q"', version: '1.2.3', description: 'Ends early? </script><script>alert(1)</script> <!-- x' },
  paths: {},
};
// A stand-in renderer whose source holds the sequences that end or confuse an inline <script>.
const renderer: RendererBundle = {
  name: 'fake-renderer',
  version: '9.9.9',
  script: 'var marker = "</script><!--<script>"; window.Redoc = { init: function () {} };',
  licenses: 'MIT License */ alert("license text must stay a comment")',
};

function inlineScripts(html: string): { attributes: string; body: string }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((match) => ({
    attributes: match[1] ?? '',
    body: match[2] ?? '',
  }));
}

describe('renderReferenceHtml', () => {
  const html = renderReferenceHtml({ spec, renderer });
  const scripts = inlineScripts(html);

  it('has exactly the JSON document, the renderer and the start-up script, none loaded by src', () => {
    expect(scripts.map((script) => script.attributes.trim())).toEqual([
      `type="application/json" id="${SPEC_ELEMENT_ID}"`,
      '',
      '',
    ]);
    expect(html).not.toMatch(/\bsrc\s*=/i);
  });

  it('embeds the document as JSON that parses back to the same data', () => {
    const json = scripts[0]?.body ?? '';
    expect(json).not.toContain('</script');
    expect(JSON.parse(json)).toEqual(spec);
  });

  it('keeps the renderer whole and its meaning unchanged despite </script> in its source', () => {
    const body = scripts[1]?.body ?? '';
    expect(body).toContain('window.Redoc = { init: function () {} };');
    const context: { window: Record<string, unknown>; marker?: string } = { window: {} };
    runInNewContext(body, context);
    expect(context.marker).toBe('</script><!--<script>');
    expect(context.window['Redoc']).toBeDefined();
  });

  it('allows by hash exactly its own two scripts, and no network source', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/
      .exec(html)?.[1]
      ?.replace(/&#39;|&quot;/g, "'");
    expect(csp).toBeDefined();
    const hashes = [...(csp ?? '').matchAll(/'sha256-([^']+)'/g)].map((match) => match[1]);
    const expected = scripts
      .slice(1)
      .map((script) => createHash('sha256').update(script.body, 'utf8').digest('base64'));
    expect(hashes).toEqual(expected);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).not.toMatch(/https?:|'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
  });

  it('escapes the title and defaults it to the document title and version', () => {
    expect(html).toContain('<title>T &lt;&amp;&gt; &quot;q&quot; 1.2.3 — API reference</title>');
    expect(renderReferenceHtml({ spec, renderer, title: 'Mine' })).toContain('<title>Mine</title>');
  });

  it('tells people without JavaScript where the document is', () => {
    expect(html).toMatch(/<noscript>[^<]*#openapi-document/);
  });
});
