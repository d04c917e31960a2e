// The sandbox answers every operation of the document it is given, with no code change: the
// document here is the repository's plus, in memory, what the service's official SDK has and the
// repository's document lacks (profiles.retrieve: GET answering a Profile; profiles.delete:
// DELETE answering no body) and a made-up operation on a resource the sandbox does not store.
import {
  loadOpenApiDocument,
  type OpenApiDocument,
  type OperationObject,
  operations,
  schemaValidator,
} from '@browser-cloud/openapi-document';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { REFS, TOKENS, call, expectError, inspect, rename, start } from './helpers.js';

const PROFILE_PATH = '/profiles/{id_or_name}';
const WIDGET = { id: 'zz_widget_1', size: 3 };

function extended(): OpenApiDocument {
  const document = structuredClone(loadOpenApiDocument());
  const item = document.paths![PROFILE_PATH] as Record<string, any>;
  const rename = item['patch'];
  // The failures the rename documents, but those of its body (400) and of a name taken (409).
  const failures = Object.fromEntries(
    Object.entries(rename.responses).filter(([status]) => Number(status) >= 401 && status !== '409'),
  );
  const common = {
    tags: rename['tags'],
    security: rename['security'],
    parameters: [{ name: 'id_or_name', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
  };
  item['get'] = {
    ...common,
    operationId: 'getProfile',
    summary: 'Get a profile',
    responses: { '200': rename.responses['200'], ...failures },
  };
  item['delete'] = {
    ...common,
    operationId: 'deleteProfile',
    summary: 'Delete a profile',
    responses: { '204': { description: 'Deleted.' }, ...failures },
  };
  (document.paths as Record<string, unknown>)['/zz-status'] = {
    get: {
      operationId: 'getZzStatus',
      summary: 'Get a status',
      tags: common.tags,
      security: common.security,
      parameters: [{ name: 'zz_verbose', in: 'query', schema: { type: 'boolean' } }],
      responses: {
        '200': {
          description: 'A widget.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ZzWidget' }, example: WIDGET } },
        },
        ...failures,
      },
    },
  };
  // A made-up action under a stored resource: the resource is found first, then the example answers.
  (document.paths as Record<string, unknown>)['/profiles/{id_or_name}/zz-archive'] = {
    post: {
      ...common,
      operationId: 'zzArchiveProfile',
      summary: 'Archive a profile',
      responses: {
        '200': {
          description: 'Archived.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ZzWidget' }, example: WIDGET } },
        },
        ...failures,
      },
    },
  };
  // An action under a resource the API can neither create nor read, and the fixture does not fill.
  (document.paths as Record<string, unknown>)['/zz-gadgets/{gadget_id}/zz-viewport'] = {
    put: {
      tags: common.tags,
      security: common.security,
      operationId: 'zzSetGadgetViewport',
      summary: 'Set a gadget viewport',
      parameters: [{ name: 'gadget_id', in: 'path', required: true, schema: { type: 'string', pattern: '^gd_' } }],
      responses: {
        '200': {
          description: 'Set.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ZzWidget' }, example: WIDGET } },
        },
        ...failures,
      },
    },
  };
  document.components!.schemas!['ZzWidget'] = {
    type: 'object',
    properties: { id: { type: 'string' }, size: { type: 'integer' } },
    required: ['id', 'size'],
    additionalProperties: false,
  };
  return document;
}

const document = extended();
const validateProfile = schemaValidator(document, '/components/schemas/Profile');
const P = REFS.profiles;
const profile = (idOrName: string, token?: string | null) =>
  call(sandbox, 'GET', `/profiles/${encodeURIComponent(idOrName)}`, token === undefined ? {} : { token });
const remove = (idOrName: string, token?: string | null) =>
  call(sandbox, 'DELETE', `/profiles/${encodeURIComponent(idOrName)}`, token === undefined ? {} : { token });

const logged: string[] = [];
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start({ document, quiet: false, logStream: { write: (line) => void logged.push(line) } });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await inspect(sandbox, '/reset', 'POST');
});

describe('an operation on a resource the sandbox stores', () => {
  it('GET reads it from the store, by id or by name, as the document shows it', async () => {
    const byId = await profile(P.defaultProject.id);
    expect(byId.status).toBe(200);
    expect(validateProfile(byId.body), JSON.stringify(validateProfile.errors)).toBe(true);
    expect(byId.body).toMatchObject({ id: P.defaultProject.id, name: P.defaultProject.name });
    expect((await profile(P.defaultProject.name)).body).toEqual(byId.body);
    // What the store holds, not an example: a rename shows.
    expect((await rename(sandbox, P.defaultProject.id, { name: 'renamed-then-read' })).status).toBe(200);
    expect((await profile('renamed-then-read')).body).toMatchObject({ id: P.defaultProject.id });
  });

  it('GET is project-scoped: another project’s profile is 404, its own project reads it', async () => {
    expectError(await profile(P.otherProject.id), 404, 'not_found');
    expect((await profile(P.otherProject.id, TOKENS.otherProject)).body).toMatchObject({ id: P.otherProject.id });
    expectError(await profile('zz_not_in_document'), 404, 'not_found');
  });

  it('keeps the auth rules: 401 without a token, projects_disabled, and a readonly token reads', async () => {
    expectError(await profile(P.defaultProject.id, null), 401, 'unauthorized');
    expectError(await profile(P.defaultProject.id, TOKENS.projectsDisabled), 404, 'projects_disabled');
    expect((await profile(P.defaultProject.id, TOKENS.readonly)).status).toBe(200);
  });

  it('DELETE deletes it (204, no body), with 404 after; a readonly token gets 403', async () => {
    const id = P.deletable.id;
    expectError(await remove(id, TOKENS.readonly), 403, 'forbidden');
    expectError(await remove(id, TOKENS.otherProject), 404, 'not_found');
    expect((await profile(id)).status).toBe(200);
    const deleted = await remove(P.deletable.name);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expectError(await profile(id), 404, 'not_found');
    expectError(await remove(id), 404, 'not_found');
    const state = (await inspect(sandbox, '/state')).body as { resources: Record<string, Array<{ id: string }>> };
    expect(state.resources['/profiles']!.map((p) => p.id)).not.toContain(id);
  });

  it('comes back with the fixture on reset', async () => {
    expect((await remove(P.deletable.id)).status).toBe(204);
    await inspect(sandbox, '/reset', 'POST');
    expect((await profile(P.deletable.id)).status).toBe(200);
  });
});

describe('an operation that is not CRUD on a resource', () => {
  const widget = (query = '', token?: string | null) =>
    call(sandbox, 'GET', `/zz-status${query}`, token === undefined ? {} : { token });

  it('answers the document’s example after the auth and request checks', async () => {
    const answered = await widget('?zz_verbose=true');
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual(WIDGET);
    expect(answered.headers.get('x-request-id')).toMatch(/^req_/);
    expectError(await widget('', null), 401, 'unauthorized');
    expectError(await widget('', 'sk_zz_not_a_token'), 401, 'unauthorized');
    const query = expectError(await widget('?zz_verbose=maybe'), 400, 'bad_request');
    expect(query.details?.map((d) => d.message)).toEqual(['zz_verbose: must be boolean']);
    expectError(await widget('?zz_unknown=1'), 400, 'bad_request');
    expectError(await call(sandbox, 'PUT', '/zz-status'), 405, 'method_not_allowed');
  });

  it('under a stored resource, finds the resource first: 404 for one of another project', async () => {
    const archive = (idOrName: string, token?: string) =>
      call(sandbox, 'POST', `/profiles/${encodeURIComponent(idOrName)}/zz-archive`, token ? { token } : {});
    const archived = await archive(P.defaultProject.name);
    expect(archived.status).toBe(200);
    expect(archived.body).toEqual(WIDGET);
    expectError(await archive(P.otherProject.id), 404, 'not_found');
    expectError(await archive(P.defaultProject.id, TOKENS.readonly), 403, 'forbidden');
  });

  it('under a resource it knows no item of and cannot make, answers the example whatever the id', async () => {
    const set = (id: string, token?: string | null) =>
      call(sandbox, 'PUT', `/zz-gadgets/${id}/zz-viewport`, token === undefined ? {} : { token });
    for (const id of ['gd_1', 'gd_anything']) {
      const answered = await set(id);
      expect(answered.status).toBe(200);
      expect(answered.body).toEqual(WIDGET);
    }
    // The request and auth checks still hold.
    expectError(await set('not_a_gadget'), 400, 'bad_request');
    expectError(await set('gd_1', null), 401, 'unauthorized');
    expectError(await set('gd_1', TOKENS.readonly), 403, 'forbidden');
  });

  it('is named in one start-up line, as the operations served from examples', () => {
    // Besides the repository document's own operations on resources the sandbox does not store.
    const own = new Set([...operations(loadOpenApiDocument())].map((operation) => operation.operationId));
    const served = sandbox.fromExamples.map((operation) => operation.operationId).filter((id) => !own.has(id));
    expect(served.sort()).toEqual(['getZzStatus', 'zzArchiveProfile', 'zzSetGadgetViewport']);
    const lines = logged
      .join('')
      .split('\n')
      .filter((line) => line.includes("document's examples"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('getZzStatus (GET /zz-status)');
    expect(lines[0]).toContain('zzArchiveProfile (POST /profiles/{id_or_name}/zz-archive)');
    expect(lines[0]).not.toMatch(/getProfile|deleteProfile/);
  });
});

describe('an operation the sandbox could only answer from an example the document lacks', () => {
  it('stops the sandbox at start-up, naming it', async () => {
    const lacking = extended();
    const responses = (lacking.paths!['/zz-status']!['get'] as OperationObject)['responses'] as Record<
      string,
      { content: Record<string, { example?: unknown }> }
    >;
    delete responses['200']!.content['application/json']!.example;
    await expect(start({ document: lacking })).rejects.toThrow(
      'The sandbox cannot start: getZzStatus answers 200 application/json and the document gives no example to serve.',
    );
  });
});
