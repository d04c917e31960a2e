import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The browser script that renders the reference, read from an npm package. */
export interface RendererBundle {
  /** Package name and version, e.g. `redoc 2.5.4`. */
  readonly name: string;
  readonly version: string;
  /** The script text, with its remote assets already replaced by inline data (see {@link inlineRemoteAssets}). */
  readonly script: string;
  /** License texts that must travel with the script. */
  readonly licenses: string;
}

/**
 * Remote files the Redoc 2 standalone bundle loads by itself, with the inline data that replaces
 * each. Redoc shows its logo as `<img src="https://cdn.redoc.ly/...">` in the sidebar footer, which
 * would be a network request on every page view; the "API docs by Redocly" text stays.
 */
export const REMOTE_ASSET_REPLACEMENTS: Readonly<Record<string, string>> = {
  'https://cdn.redoc.ly/redoc/logo-mini.svg':
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E",
};

/**
 * Reads Redoc's standalone bundle (`redoc/bundles/redoc.standalone.js`, a UMD script that
 * defines `window.Redoc`) from the installed `redoc` package.
 *
 * @param bundlePath another standalone build to use instead of the installed package's.
 */
export async function loadRendererBundle(bundlePath?: string): Promise<RendererBundle> {
  const require = createRequire(import.meta.url);
  let scriptPath = bundlePath;
  let version = 'custom';
  let licenses = '';
  if (scriptPath === undefined) {
    let packageJsonPath: string;
    try {
      packageJsonPath = require.resolve('redoc/package.json');
    } catch {
      throw new Error(
        'The `redoc` package is not installed; add it to apps/api-reference devDependencies and run npm install.',
      );
    }
    const packageDir = dirname(packageJsonPath);
    version = (JSON.parse(await readFile(packageJsonPath, 'utf8')) as { version: string }).version;
    scriptPath = join(packageDir, 'bundles', 'redoc.standalone.js');
    licenses = [
      await readOptional(join(packageDir, 'LICENSE')),
      await readOptional(join(packageDir, 'bundles', 'redoc.standalone.js.LICENSE.txt')),
    ].join('\n');
  }
  const script = inlineRemoteAssets(await readFile(scriptPath, 'utf8'));
  return { name: 'redoc', version, script, licenses };
}

/** Replaces every known remote asset URL of the renderer with its inline data. */
export function inlineRemoteAssets(script: string): string {
  let result = script;
  for (const [url, data] of Object.entries(REMOTE_ASSET_REPLACEMENTS)) result = result.replaceAll(url, data);
  return result;
}

async function readOptional(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return '';
  }
}
