import { describe, expect, it } from 'vitest';
import { findRemoteReferences } from './find-remote-references.js';

describe('findRemoteReferences', () => {
  it.each([
    ['script-src', '<script src="https://cdn.example.com/redoc.standalone.js"></script>'],
    ['script-src', "<script type=module src='./local.js'></script>"],
    ['link', '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">'],
    ['link', '<link rel="modulepreload" href="//cdn.example.com/x.js">'],
    ['element-src', '<img alt="logo" src="https://cdn.redoc.ly/redoc/logo-mini.svg">'],
    ['css-url', '<style>@font-face { src: url("https://fonts.gstatic.com/roboto.woff2") }</style>'],
    ['css-import', '<style>@import "https://example.com/theme.css";</style>'],
    ['module-import', 'import { hydrate } from "https://cdn.redocly.com/redoc/v3/bundles/redoc.standalone.js";'],
    ['module-import', 'await import("https://esm.example.com/x")'],
    // What the unpatched Redoc bundle contains: a React `img` element with a CDN logo.
    ['asset-url', 'createElement("img",{alt:"redocly logo",src:"https://cdn.redoc.ly/redoc/logo-mini.svg"})'],
  ])('flags %s in %s', (kind, html) => {
    expect(findRemoteReferences(html).map((reference) => reference.kind)).toContain(kind);
  });

  it.each([
    '<img src="data:image/svg+xml,%3Csvg/%3E">',
    '<a href="https://redocly.com/redoc/">API docs by Redocly</a>',
    '<link rel="icon" href="data:,">',
    '<script>const worker = new Worker(URL.createObjectURL(blob));</script>',
    '<img src="blob:file:///abc">',
    'let r=`<img src="${e}" alt="${n}"`;',
    '{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://raw.githubusercontent.com/ajv-validator/ajv/master/lib/refs/data.json"}',
    '"See https://github.com/mobxjs/mobx/blob/main/packages/mobx/src/errors.ts"',
    '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  ])('allows %s', (html) => {
    expect(findRemoteReferences(html)).toEqual([]);
  });
});

describe('findRemoteReferences in document text', () => {
  it('flags images that markdown or HTML descriptions would show', () => {
    const kinds = (text: string): string[] => findRemoteReferences(text).map((reference) => reference.kind);
    expect(kinds('{"description":"![diagram](https://example.com/flow)"}')).toEqual(['markdown-image']);
    expect(kinds('{"description":"<img src=\\"https://example.com/flow\\">"}')).toContain('element-src');
    expect(kinds('{"description":"[a link](https://example.com/page) is fine"}')).toEqual([]);
  });
});
