import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH } from './default-paths.js';
import { loadSpec } from './load-spec.js';

async function tempFile(name: string, text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'api-reference-')), name);
  await writeFile(path, text);
  return path;
}

describe('loadSpec', () => {
  it("reads the project's document with its three operations", async () => {
    const spec = await loadSpec(DEFAULT_SPEC_PATH);
    expect(spec.info.title).toBe('Browser Cloud API');
    const operationIds = Object.values(
      spec['paths'] as Record<string, Record<string, { operationId: string }>>,
    ).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(operationIds.sort()).toEqual(['loginAuthConnection', 'renameProfile', 'streamBrowserLogs']);
  });

  it('rejects a document that refers to another file', async () => {
    const path = await tempFile(
      'split.yaml',
      'openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: "./common.yaml#/A"}\n    B: {$ref: "#/components/schemas/A"}\n',
    );
    await expect(loadSpec(path)).rejects.toThrow(/other documents.*\.\/common\.yaml#\/A/);
  });

  it('rejects a file that is not an OpenAPI 3 document', async () => {
    await expect(
      loadSpec(await tempFile('swagger.yaml', 'swagger: "2.0"\ninfo: {title: T, version: "1"}\n')),
    ).rejects.toThrow(/not an OpenAPI 3\.x document/);
    await expect(loadSpec(await tempFile('list.yaml', '- 1\n- 2\n'))).rejects.toThrow(/not an OpenAPI 3\.x document/);
  });

  it('rejects a missing file', async () => {
    await expect(loadSpec('/nonexistent/openapi.yaml')).rejects.toThrow(/ENOENT/);
  });
});
