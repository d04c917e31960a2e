import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRemoteReferences } from './find-remote-references.js';
import { inlineRemoteAssets, loadRendererBundle, REMOTE_ASSET_REPLACEMENTS } from './renderer-bundle.js';

describe('loadRendererBundle', () => {
  it('reads the installed Redoc 2 standalone bundle, with its license texts', async () => {
    const bundle = await loadRendererBundle();
    expect(bundle.name).toBe('redoc');
    expect(bundle.version).toMatch(/^2\./);
    expect(bundle.script).toContain('Redoc');
    expect(bundle.licenses).toMatch(/MIT License/);
  });

  it('leaves none of the remote assets Redoc would fetch, and nothing else the scan flags', async () => {
    const bundle = await loadRendererBundle();
    for (const url of Object.keys(REMOTE_ASSET_REPLACEMENTS)) expect(bundle.script).not.toContain(url);
    expect(findRemoteReferences(bundle.script)).toEqual([]);
  });

  it('reads another standalone build when given its path', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'api-reference-')), 'custom.js');
    await writeFile(path, 'window.Redoc = {};');
    await expect(loadRendererBundle(path)).resolves.toMatchObject({ version: 'custom', script: 'window.Redoc = {};' });
    await expect(loadRendererBundle(join(tmpdir(), 'no-such-bundle.js'))).rejects.toThrow(/ENOENT/);
  });
});

describe('inlineRemoteAssets', () => {
  it('replaces every occurrence of each known remote asset with inline data', () => {
    const logo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
    const script = `a={src:"${logo}"};b="${logo}";c="https://example.com/other.svg"`;
    const result = inlineRemoteAssets(script);
    expect(result).not.toContain(logo);
    expect(result.match(/data:image\/svg\+xml/g)).toHaveLength(2);
    // An unknown asset is not silently rewritten; the build's scan reports it instead.
    expect(result).toContain('https://example.com/other.svg');
  });
});
