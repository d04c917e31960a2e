import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('browser build', () => {
  it('bundles for browsers with no Node built-ins and no dependencies', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: ['safari15', 'chrome100', 'firefox100'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.every((path) => path.startsWith('src/') || path.includes('/sse/src/'))).toBe(true);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/from ["']node:|require\(/);
    // Streams are read with getReader(), never async-iterated (Safari lacks that).
    expect(code).not.toMatch(/for await \([^)]*body/);
    expect(code).toContain('getReader()');
  });
});
