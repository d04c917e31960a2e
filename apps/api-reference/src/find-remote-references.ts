/** A place in the page that would make the browser fetch something from the network. */
export interface RemoteReference {
  readonly kind:
    | 'script-src'
    | 'link'
    | 'element-src'
    | 'css-url'
    | 'css-import'
    | 'module-import'
    | 'asset-url'
    | 'markdown-image';
  readonly text: string;
}

// Markup or code that loads a resource by itself. Each pattern's first group is the address;
// `data:`, `blob:` and fragment addresses stay inside the page and are allowed; so are addresses
// computed in code (`${...}`), such as the markdown renderer's `<img src="${href}">` template,
// because what they load depends on the document (whose own URLs the last pattern checks).
const PATTERNS: ReadonlyArray<readonly [RemoteReference['kind'], RegExp]> = [
  ['script-src', /<script\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)/gi],
  ['link', /<link\b[^>]*?\bhref\s*=\s*["']?([^"'\s>]+)/gi],
  [
    'element-src',
    /<(?:img|iframe|frame|embed|source|video|audio|track|input|object)\b[^>]*?\b(?:src|srcset|data|poster)\s*=\s*["']?([^"'\s>]+)/gi,
  ],
  ['css-url', /url\(\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi],
  ['css-import', /@import\s+(?:url\()?\s*["']((?:https?:)?\/\/[^"']+)/gi],
  ['module-import', /\b(?:import|from)\s*\(?\s*["']((?:https?:)?\/\/[^"']+)["']/gi],
  // Markdown in the document's descriptions: Redoc renders `![alt](url)` as an image.
  ['markdown-image', /!\[[^\]]*\]\(\s*<?((?:https?:)?\/\/[^)\s>]+)/gi],
  // A quoted absolute URL of a file type that browsers load as a resource (images, fonts,
  // styles, scripts). Links to documentation pages or JSON Schema ids do not match.
  [
    'asset-url',
    /["'`]((?:https?:)?\/\/[^"'`\s]+?\.(?:svg|png|jpe?g|gif|webp|avif|ico|woff2?|ttf|otf|eot|css|m?js)(?:[?#][^"'`\s]*)?)["'`]/gi,
  ],
];

/**
 * Scans a page's HTML (scripts included), or any text such as a document's JSON, for references
 * that would load something from the network: script or stylesheet sources, images, CSS
 * `url()`/`@import`, remote module imports, markdown images and quoted URLs of images, fonts,
 * styles and scripts.
 *
 * It is a static safety net for the build; a browser test with the network blocked is what
 * proves that the page makes no request.
 */
export function findRemoteReferences(html: string): RemoteReference[] {
  const found: RemoteReference[] = [];
  for (const [kind, pattern] of PATTERNS) {
    for (const match of html.matchAll(pattern)) {
      const address = match[1] ?? '';
      if (/^(?:data:|blob:|#|\$\{)/i.test(address)) continue;
      found.push({ kind, text: match[0].slice(0, 200) });
    }
  }
  return found;
}
