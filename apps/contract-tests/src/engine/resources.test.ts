import { type OpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import {
  createdId,
  creatorOf,
  deleterOf,
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

  it('find the create of what a delete removes, and the delete of what a create makes, by the resource model', () => {
    expect(creatorOf(document, remove!)?.operationId).toBe(make!.operationId);
    expect(creatorOf(document, read!)).toBeUndefined();
    expect(deleterOf(document, make!)?.operationId).toBe(remove!.operationId);
    expect(deleterOf(document, read!)).toBeUndefined();
    expect(createdId(document, make!, { id: 'zzp_7' })).toBe('zzp_7');
    expect(createdId(document, make!, { id: 12 })).toBe('12');
    expect(createdId(document, make!, { id: 1.5 })).toBeUndefined();
    expect(createdId(document, read!, { id: 'zzp_7' })).toBeUndefined();
    // A create whose answer does not hold the id makes nothing the suite could delete.
    const withoutId = structuredClone(document) as any;
    delete withoutId.paths['/zz_proxies'].post.responses['201'].content;
    expect(creatorOf(withoutId, [...operations(withoutId)][1]!)).toBeUndefined();
  });

  it('read the id where the schema has it: another field than id, an item composed by allOf', () => {
    const composed = structuredClone(document) as any;
    composed.paths['/zz_proxies'].post.responses['201'].content['application/json'].schema = {
      allOf: [{ type: 'object', properties: { zz_proxy_id: { ...text, example: 'zzp_1' } } }, { type: 'object' }],
    };
    const [, remove2, , make2] = [...operations(composed)];
    expect(creatorOf(composed, remove2!)?.operationId).toBe('zzMake');
    expect(createdId(composed, make2!, { zz_proxy_id: 'zzp_9', id: 'other' })).toBe('zzp_9');
  });
});
