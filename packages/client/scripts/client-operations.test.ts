// Adding an operation to the document is all it takes: the repository's document plus the two
// profile operations the official SDK has (`profiles.retrieve`, `profiles.delete`) is generated
// as `npm run generate` does (types and validators, then the client), and the client built from
// that code, bundled with the package's own source, calls them as methods and as functions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findOperation,
  loadOpenApiDocument,
  type OperationObject,
  operations,
  resourceFileName,
} from '@browser-cloud/openapi-document';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, PROFILE, scriptedFetch, TOKEN } from '../src/test-support/mock-fetch.js';
import { scratchClient } from '../src/test-support/scratch-client.js';

const SOURCE = fileURLToPath(new URL('../src/', import.meta.url));
const base = loadOpenApiDocument();
const rename = findOperation(base, 'renameProfile');
const profilePath = rename.path;
// The rename's own path parameter, as the document writes it, without what decides the rename's repeatability.
const { 'x-repeatable-when-matches': _, ...parameter } = rename.parameters.find((p) => p.in === 'path')!.parameter;
const profile = rename.responses[rename.success!.status]!.content['application/json']!.media.schema;
const notFound = rename.operation.responses!['404']!;

const document = structuredClone(base);
Object.assign(document.paths![profilePath]!, {
  get: {
    operationId: 'getProfile',
    summary: 'Get a profile',
    tags: rename.operation.tags,
    parameters: [parameter],
    responses: {
      '200': { description: 'The profile.', content: { 'application/json': { schema: profile } } },
      '404': notFound,
    },
  } satisfies OperationObject,
  delete: {
    operationId: 'deleteProfile',
    summary: 'Delete a profile',
    tags: rename.operation.tags,
    parameters: [parameter],
    responses: { '204': { description: 'Deleted.' }, '404': notFound },
  } satisfies OperationObject,
});

type Module = Record<string, (...args: never[]) => unknown>;
let generated: Record<string, string>;
let client: Module & { createClient(options: object): Record<string, Record<string, (...args: unknown[]) => unknown>> };
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'client-operations-'));
  ({ client, generated } = await scratchClient<typeof client>(document, folder));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

const options = (fetch: unknown) => ({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch });
const module = (name: string) =>
  Object.entries(generated).find(([path]) => basename(path) === name && path.startsWith(SOURCE))![1];

describe('an operation added to the document', () => {
  it('is generated, beside the others: a method at its SDK name and a function named by its operationId', () => {
    const made = client.createClient(options(scriptedFetch()));
    for (const { operationId, sdk, names } of operations(document)) {
      const resource = sdk.resource.reduce<Record<string, unknown>>((node, key) => node[key] as never, made);
      expect(resource[sdk.verb], operationId).toBeTypeOf('function');
      expect(client[names.function], operationId).toBeTypeOf('function');
    }
  });

  it('is typed by the document: the answer as its component, no answer as void', () => {
    const types = module('profiles.ts');
    expect(types).toContain('get(idOrName: string, options?: RequestOptions): Promise<Profile>;');
    expect(types).toContain('delete(idOrName: string, options?: RequestOptions): Promise<void>;');
    expect(types).toMatch(
      /export function getProfile\(connection: Connection, idOrName: string, options\?: RequestOptions\): Promise<Profile>/,
    );
    expect(types).toMatch(
      /export function deleteProfile\(connection: Connection, idOrName: string, options\?: RequestOptions\): Promise<void>/,
    );
    expect(types).toContain('await client.profiles.delete(');
  });

  it('client.profiles.get and getProfile GET the profile and read it as a Profile', async () => {
    const fetch = scriptedFetch(json(200, PROFILE));
    const made = client.createClient(options(fetch));
    await expect(made['profiles']!['get']!('checkout agent')).resolves.toEqual(PROFILE);
    const connection = (client['createConnection'] as (o: object) => unknown)(options(fetch));
    await expect((client['getProfile'] as (...a: unknown[]) => unknown)(connection, 'prof_1')).resolves.toEqual(
      PROFILE,
    );
    expect(fetch.requests.map((r) => `${r.method} ${r.url} ${r.headers.get('authorization')}`)).toEqual([
      `GET http://127.0.0.1:1/profiles/checkout%20agent Bearer ${TOKEN}`,
      `GET http://127.0.0.1:1/profiles/prof_1 Bearer ${TOKEN}`,
    ]);
    expect(fetch.requests[0]!.body).toBeNull();
  });

  it('checks the path value before sending, and reads an answer that is not a Profile as such', async () => {
    const fetch = scriptedFetch(json(200, { name: 'no id' }));
    const made = client.createClient(options(fetch));
    await expect(made['profiles']!['get']!('')).rejects.toMatchObject({
      name: 'ValidationError',
      field: 'path.id_or_name',
    });
    expect(fetch).not.toHaveBeenCalled();
    await expect(made['profiles']!['get']!('prof_1')).rejects.toMatchObject({
      name: 'InvalidResponseError',
      field: 'body.id',
    });
  });

  it('client.profiles.delete and deleteProfile DELETE it and resolve to undefined on 204', async () => {
    const fetch = scriptedFetch(() => new Response(null, { status: 204 }));
    const made = client.createClient(options(fetch));
    await expect(made['profiles']!['delete']!('prof_1')).resolves.toBeUndefined();
    const connection = (client['createConnection'] as (o: object) => unknown)(options(fetch));
    await expect(
      (client['deleteProfile'] as (...a: unknown[]) => unknown)(connection, 'prof_2'),
    ).resolves.toBeUndefined();
    expect(fetch.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'DELETE /profiles/prof_1',
      'DELETE /profiles/prof_2',
    ]);
  });

  it('a DELETE is retried as HTTP idempotency allows, and a retry meeting 404 after a 503 resolves', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(
      json(503, { code: 'unavailable', message: 'later' }),
      json(404, { code: 'not_found', message: 'resource not found' }),
    );
    const deleted = client.createClient(options(fetch))['profiles']!['delete']!('checkout-agent') as Promise<unknown>;
    const settled = deleted.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await vi.runAllTimersAsync();
    expect(await settled).toEqual({ value: undefined });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('the generated modules', () => {
  const modules = () => Object.entries(generated).filter(([path]) => path.startsWith(SOURCE));

  it('are one per top-level resource, beside client.ts and resources.ts', () => {
    const resources = new Set([...operations(document)].map((o) => o.sdk.resource[0]));
    const names = modules().map(([path]) => path.slice(SOURCE.length).replaceAll('\\', '/'));
    expect(names.sort()).toEqual(
      [
        'generated/client.ts',
        'generated/resources.ts',
        ...[...resources].map((r) => `generated/resources/${resourceFileName(r!)}.ts`),
      ].sort(),
    );
  });

  it('import only what they use, and no line is longer than the repo writes them', () => {
    for (const [path, source] of modules()) {
      const imports = [...source.matchAll(/^import (?:type )?\{([^}]*)\} from/gm)].flatMap(([, list]) =>
        list!
          .split(',')
          .map((name) => name.replace(/^\s*type\s+/, '').trim())
          .filter(Boolean),
      );
      // The code without its imports and comments.
      const body = source
        .replace(/^import [\s\S]*?from '[^']+';$/gm, '')
        .replace(/\/\*\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const name of imports)
        expect(body, `${path}: ${name}`).toMatch(new RegExp(`\\b${name.replace('$', '\\$')}\\b`));
      for (const line of source.split('\n')) expect(line.length, `${path}: ${line}`).toBeLessThanOrEqual(120);
    }
  });
});
