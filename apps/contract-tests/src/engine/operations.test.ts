import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument, type OpenApiDocument } from '@browser-cloud/openapi-document';
import { operationById, operationsOf } from './operations.js';

const document = loadOpenApiDocument();

describe('operationsOf', () => {
  it('lists every operation of the document with its parameters, body and security', () => {
    const operations = operationsOf(document);
    expect(operations.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual([
      'POST /auth/connections/{id}/login loginAuthConnection',
      'PATCH /profiles/{id_or_name} renameProfile',
      'GET /browsers/{id}/logs/stream streamBrowserLogs',
    ]);
    const login = operationById(document, 'loginAuthConnection');
    expect(login.parameters).toEqual([
      expect.objectContaining({
        name: 'id',
        in: 'path',
        required: true,
        schemaPointer: '#/components/parameters/AuthConnectionId/schema',
      }),
    ]);
    expect(login.body).toEqual({
      required: false,
      mediaType: 'application/json',
      schemaPointer: '#/paths/~1auth~1connections~1{id}~1login/post/requestBody/content/application~1json/schema',
    });
    expect(login.secured).toBe(true);
    expect(operationById(document, 'renameProfile').body?.required).toBe(true);
  });

  it('finds the one object schema that states the whole query', () => {
    const stream = operationById(document, 'streamBrowserLogs');
    expect(stream.querySchemaPointer).toBe('#/components/schemas/LogStreamQuery');
    expect(stream.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual([
      'source',
      'path',
      'supervisor_process',
      'follow',
    ]);
    expect(stream.body).toBeUndefined();
  });

  it('has no query schema when the parameters do not share one', () => {
    const changed: Record<string, any> = structuredClone(document);
    changed.paths['/browsers/{id}/logs/stream'].get.parameters[4].schema = { type: 'boolean' };
    expect(operationById(changed as OpenApiDocument, 'streamBrowserLogs').querySchemaPointer).toBeUndefined();
  });

  it('says which operation it cannot find', () => {
    expect(() => operationById(document, 'deleteProfile')).toThrow(
      'the OpenAPI document has no operation "deleteProfile"',
    );
  });
});

describe('generated case files', () => {
  it('exist for every operation of the document, one file each so that --shard can split them', () => {
    const dir = fileURLToPath(new URL('../generated/', import.meta.url));
    const files = readdirSync(dir).sort();
    expect(files).toEqual(
      operationsOf(document)
        .map((o) => `${o.operationId}.contract.test.ts`)
        .sort(),
    );
    for (const file of files) {
      expect(readFileSync(`${dir}${file}`, 'utf8')).toContain(`describeGeneratedCases('${file.split('.')[0]}'`);
    }
  });
});
