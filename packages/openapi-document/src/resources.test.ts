import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from './document-types.js';
import { loadOpenApiDocument } from './load-document.js';
import { operations } from './operations.js';
import { resources } from './resources.js';

const answer = (schema: object, example?: unknown) => ({
  description: 'ok',
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});
const byId = { name: 'id', in: 'path' as const, required: true, schema: { type: 'string' }, example: 'br_01ABC' };
const byIdOrName = { name: 'id_or_name', in: 'path' as const, required: true, schema: { type: 'string' } };
const PROFILE = { $ref: '#/components/schemas/Profile' };

/** A document of its own: profiles with every CRUD operation, browsers with a create, a read and an action. */
const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 't', version: '1.0.0' },
  paths: {
    '/profiles': {
      post: { operationId: 'createProfile', responses: { '201': answer(PROFILE) } },
      get: {
        operationId: 'listProfiles',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'offset', in: 'query', schema: { type: 'integer' } },
          { name: 'name', in: 'query', schema: { type: 'string' } },
          { name: 'zz_sort', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': answer({ type: 'array', items: PROFILE }) },
      },
    },
    '/profiles/{id_or_name}': {
      parameters: [byIdOrName],
      get: { operationId: 'getProfile', responses: { '200': answer(PROFILE, { id: 'prof_01XYZ', name: 'a' }) } },
      patch: { operationId: 'renameProfile', responses: { '200': answer(PROFILE) } },
      delete: { operationId: 'deleteProfile', responses: { '204': { description: 'gone' } } },
    },
    '/browsers': {
      post: {
        operationId: 'createBrowser',
        responses: { '200': answer({ $ref: '#/components/schemas/Browser' }) },
      },
    },
    '/browsers/{id}': {
      get: {
        operationId: 'getBrowser',
        parameters: [byId],
        responses: { '200': answer({ $ref: '#/components/schemas/Browser' }) },
      },
    },
    '/browsers/{id}/logs/stream': {
      get: { operationId: 'streamLogs', parameters: [byId], responses: { '200': { description: 'events' } } },
    },
    '/browsers/{id}/pages': {
      get: {
        operationId: 'listPages',
        parameters: [byId, { name: 'cursor', in: 'query', schema: { type: 'string' } }],
        responses: {
          '200': answer({
            type: 'object',
            properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Page' } }, has_more: {} },
          }),
        },
      },
    },
    '/browsers/{id}/pages/{page_id}': {
      get: {
        operationId: 'getPage',
        parameters: [byId, { name: 'page_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': answer({ $ref: '#/components/schemas/Page' }) },
      },
    },
    '/health': { get: { operationId: 'health', responses: { '204': { description: 'up' } } } },
  },
  components: {
    schemas: {
      Profile: {
        type: 'object',
        title: 'Profile',
        properties: {
          id: { type: 'string' },
          name: { type: ['string', 'null'], 'x-unique': true },
          created_at: { type: 'string', format: 'date-time' },
        },
        required: ['id', 'created_at'],
      },
      Browser: {
        type: 'object',
        properties: {
          profile_id: { type: 'string', example: 'prof_01XYZ' },
          session_id: { type: 'string', example: 'br_01DEF' },
          cdp_ws_url: { type: 'string' },
        },
        required: ['profile_id', 'session_id'],
      },
      Page: { type: 'object', properties: { id: { type: 'string', example: 'pg_1' } } },
    },
  },
};

const model = resources(document);
const byKey = (key: string) => model.resources.find((resource) => resource.key === key)!;
const ops = Object.fromEntries([...operations(document)].map((operation) => [operation.operationId, operation]));

describe('resources', () => {
  it('makes a resource of each collection an item path names, nested ones under their parent', () => {
    expect(model.resources.map((r) => [r.key, r.collection, r.depth])).toEqual([
      ['/profiles', 'profiles', 0],
      ['/browsers', 'browsers', 0],
      ['/browsers/{}/pages', 'pages', 1],
    ]);
  });

  it('says what each operation does by its method and where its path sits', () => {
    const role = (id: string) => {
      const found = model.roleOf(ops[id]!);
      return found && `${found.action} ${found.resource.key}`;
    };
    expect(['createProfile', 'listProfiles', 'getProfile', 'renameProfile', 'deleteProfile'].map(role)).toEqual([
      'create /profiles',
      'list /profiles',
      'read /profiles',
      'merge /profiles',
      'delete /profiles',
    ]);
    expect(['createBrowser', 'getBrowser', 'streamLogs', 'listPages', 'getPage', 'health'].map(role)).toEqual([
      'create /browsers',
      'read /browsers',
      'action /browsers',
      'list /browsers/{}/pages',
      'read /browsers/{}/pages',
      undefined,
    ]);
    expect(byKey('/browsers').actions.map((o) => o.operationId)).toEqual(['streamLogs']);
  });

  it('reads the id, the name, the unique properties and the id prefix from the schema and its examples', () => {
    const profiles = byKey('/profiles');
    expect(profiles).toMatchObject({ idField: 'id', nameField: 'name', unique: ['name'], idPrefix: 'prof_' });
    expect(profiles.noun).toBe('profile');
    expect(profiles.schema?.pointer).toBe('/components/schemas/Profile');
    // No `id`: the `…id` property whose example starts as the item path's example does.
    expect(byKey('/browsers')).toMatchObject({ idField: 'session_id', nameField: undefined, idPrefix: 'br_' });
    expect(byKey('/browsers').noun).toBe('browsers');
  });

  it('finds how a list pages and filters, and where its answer holds the items', () => {
    expect(byKey('/profiles').list).toMatchObject({
      itemsProperty: undefined,
      paging: { limit: 'limit', offset: 'offset', cursor: undefined },
      filters: ['name'],
      others: ['zz_sort'],
    });
    const pages = byKey('/browsers/{}/pages');
    expect(pages.list).toMatchObject({ itemsProperty: 'data', paging: { cursor: 'cursor' }, others: [] });
    expect(pages.schema?.pointer).toBe('/components/schemas/Page');
  });

  it('reads an item schema composed by allOf, and a list envelope composed so, as one object', () => {
    const composed = structuredClone(document) as any;
    const { Profile, Page } = composed.components.schemas;
    composed.components.schemas = {
      ...composed.components.schemas,
      Named: { type: 'object', properties: { name: Profile.properties.name }, required: ['name'] },
      Profile: {
        title: 'Profile',
        allOf: [
          { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          { $ref: '#/components/schemas/Named' },
        ],
      },
      Paged: { type: 'object', properties: { data: { type: 'array', items: Page }, has_more: {} } },
    };
    composed.paths['/browsers/{id}/pages'].get.responses['200'] = answer({
      allOf: [{ $ref: '#/components/schemas/Paged' }],
    });
    const model = resources(composed);
    const profiles = model.resources.find((r) => r.key === '/profiles')!;
    expect(profiles).toMatchObject({ idField: 'id', nameField: 'name', unique: ['name'], idPrefix: 'prof_' });
    const pages = model.resources.find((r) => r.key === '/browsers/{}/pages')!;
    expect(pages.list).toMatchObject({ itemsProperty: 'data', paging: { cursor: 'cursor' } });
    // Where an x-unique is written in a member is where it is refused.
    composed.components.schemas.Named.properties.name['x-unique'] = 'yes';
    expect(() => resources(composed)).toThrow(
      'x-unique at /components/schemas/Named/properties/name must be true or false',
    );
  });

  it('refuses an x-unique that is not a boolean, naming where it is', () => {
    const bad = structuredClone(document);
    (bad.components!.schemas!['Profile'] as any).properties.name['x-unique'] = 'yes';
    expect(() => resources(bad)).toThrow(
      'x-unique at /components/schemas/Profile/properties/name must be true or false',
    );
  });

  // The API workflow test adds resources to the document: these three stay whatever is added.
  it('reads the repository document: its connections, profiles and browsers, the profile name unique', () => {
    const model = resources(loadOpenApiDocument());
    expect(model.resources.map((r) => r.key)).toEqual(
      expect.arrayContaining(['/auth/connections', '/browsers', '/profiles']),
    );
    expect(model.resources.find((r) => r.key === '/profiles')).toMatchObject({ unique: ['name'], idPrefix: 'prof_' });
  });
});
