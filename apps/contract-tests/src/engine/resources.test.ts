import { type OpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import {
  creatorOf,
  exampleResources,
  knownValues,
  missingReason,
  resourcesFrom,
  resourceVariables,
} from './resources.js';

const text = { type: 'string', minLength: 1 };
const ok = { responses: { '200': { description: 'ok' } } };
/** Operations no real API addition will have. */
const document = {
  openapi: '3.1.0',
  info: { title: 'zz', version: '0' },
  paths: {
    '/zz_proxies/{zz_id}': {
      parameters: [{ name: 'zz_id', in: 'path', required: true, schema: text, example: 'zzp_1' }],
      get: { operationId: 'zzRead', ...ok },
      delete: { operationId: 'zzRemove', ...ok },
    },
    '/zz_boxes/{box}/zz_entries/stream': {
      get: {
        operationId: 'zzStream',
        parameters: [
          { name: 'box', in: 'path', required: true, schema: text },
          { name: 'zz_file', in: 'query', schema: text, examples: { one: { value: '/zz/log' } } },
          { name: 'zz_kind', in: 'query', schema: { type: 'string', enum: ['a', 'b'] } },
          { name: 'zz_follow', in: 'query', schema: { type: 'boolean' } },
        ],
        ...ok,
      },
    },
    '/zz_proxies': {
      post: {
        operationId: 'zzMake',
        responses: {
          '201': {
            description: 'made',
            content: { 'application/json': { schema: { type: 'object', properties: { id: text } } } },
          },
        },
      },
    },
  },
} as unknown as OpenApiDocument;
const [read, remove, stream, make] = [...operations(document)];

describe('resource variables', () => {
  it("name a path parameter's resource for its collection, and a delete's a dedicated one", () => {
    expect(resourceVariables(read!).path).toEqual({ zz_id: 'CONTRACT_ZZ_PROXY_ID' });
    expect(resourceVariables(remove!).path).toEqual({ zz_id: 'CONTRACT_DELETABLE_ZZ_PROXY_ID' });
    expect(resourceVariables(stream!).path).toEqual({ box: 'CONTRACT_ZZ_BOX_ID' });
  });

  it('name a free-text query parameter for the noun after the path parameters; enums and booleans need none', () => {
    expect(resourceVariables(stream!).query).toEqual({ zz_file: 'CONTRACT_ZZ_ENTRY_ZZ_FILE' });
  });

  it('give the values of the resources set', () => {
    const resources = { CONTRACT_ZZ_PROXY_ID: 'zzp_9', CONTRACT_ZZ_ENTRY_ZZ_FILE: '/x' };
    expect(knownValues(read!, resources)).toEqual({ path: { zz_id: ['zzp_9'] }, query: {} });
    expect(knownValues(stream!, resources)).toEqual({ path: { box: [] }, query: { zz_file: ['/x'] } });
  });

  it('come from the environment, blank ones not given, and a case says which it lacks', () => {
    const resources = resourcesFrom({ CONTRACT_ZZ_PROXY_ID: ' zzp_1 ', CONTRACT_ZZ_BOX_ID: ' ', PATH: '/bin' });
    expect(resources).toEqual({ CONTRACT_ZZ_PROXY_ID: 'zzp_1' });
    expect(missingReason(resources, ['CONTRACT_ZZ_PROXY_ID'])).toBeUndefined();
    expect(missingReason(resources, ['CONTRACT_ZZ_BOX_ID'])).toBe('CONTRACT_ZZ_BOX_ID is not set');
    expect(missingReason({}, ['CONTRACT_A', 'CONTRACT_B'])).toBe('CONTRACT_A, CONTRACT_B are not set');
  });

  it("are each their parameter's example for a target that answers any id; a parameter without one gives none", () => {
    expect(exampleResources(operations(document))).toEqual({
      CONTRACT_ZZ_PROXY_ID: 'zzp_1',
      CONTRACT_DELETABLE_ZZ_PROXY_ID: 'zzp_1',
      CONTRACT_ZZ_ENTRY_ZZ_FILE: '/zz/log',
    });
  });

  it("find the operation that creates what a delete removes: a POST on the collection's path answering an id", () => {
    expect(creatorOf(operations(document), remove!)?.operationId).toBe(make!.operationId);
    expect(creatorOf(operations(document), read!)).toBeUndefined();
    const withoutId = [...operations(document)].map((o) =>
      o.operationId === 'zzMake' ? { ...o, success: undefined } : o,
    );
    expect(creatorOf(withoutId, remove!)).toBeUndefined();
  });
});
