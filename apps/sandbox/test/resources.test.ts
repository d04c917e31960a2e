// The sandbox keeps every resource of the document it is given, with no code change: the document
// here is the repository's plus, in memory, a create (409 on a taken name), a paged list, a read
// and a delete of profiles, and a new resource, browsers (a create and a read), whose id is its
// `session_id` and whose schema is composed by `allOf`. Expectations come from that document: prefixes, paging parameters, unique names.
import { type OpenApiDocument, operations, resources, schemaValidator } from '@browser-cloud/openapi-document';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failuresOf, withProfilesCrud } from '../../../openapi/test-support/profiles-crud.js';
import type { RunningSandbox, SandboxFixture } from '../src/index.js';
import { DEFAULT_FIXTURE } from '../src/index.js';
import { call, expectError, inspect, REFS, rename, start, TOKENS } from './helpers.js';

const P = REFS.profiles;
const BROWSER_EXAMPLE = {
  session_id: 'br_01HZY4A2B3C4D5E6F7G8H9J0KA',
  created_at: '2026-11-22T19:58:03Z',
  cdp_ws_url: 'wss://cdp.example.com/br_01HZY4A2B3C4D5E6F7G8H9J0KA',
  headless: false,
};

const EXTENSION = { id: 'ext_01HZY0000000000000000000AA', name: 'ad-blocker' };

/** The repository's document with profiles' create, list, read and delete, and browsers' create and read. */
function extended(): OpenApiDocument {
  const document = withProfilesCrud();
  const paths = document.paths as Record<string, Record<string, any>>;
  const rename = paths['/profiles/{id_or_name}']!['patch'];
  const failures = () => failuresOf(rename);
  const common = { tags: rename.tags, security: rename.security };
  const json = (schema: object, example?: object) => ({
    'application/json': { schema, ...(example && { example }) },
  });
  const browser = { $ref: '#/components/schemas/Browser' };
  paths['/browsers'] = {
    post: {
      ...common,
      tags: ['Browsers'],
      operationId: 'createBrowser',
      summary: 'Create a browser',
      requestBody: { required: false, content: json({ $ref: '#/components/schemas/CreateBrowserRequest' }) },
      responses: { '200': { description: 'Created.', content: json(browser, BROWSER_EXAMPLE) }, ...failures() },
    },
  };
  paths['/browsers/{id}'] = {
    get: {
      ...common,
      tags: ['Browsers'],
      operationId: 'getBrowser',
      summary: 'Get a browser',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
      responses: { '200': { description: 'The browser.', content: json(browser, BROWSER_EXAMPLE) }, ...failures() },
    },
  };
  paths['/browsers/{id}']['put'] = {
    ...paths['/browsers/{id}']['get'],
    operationId: 'replaceBrowser',
    summary: 'Replace a browser',
    requestBody: { required: true, content: json({ $ref: '#/components/schemas/CreateBrowserRequest' }) },
  };
  // A resource the API only reads: the sandbox holds its examples. Its names are made up (`zz`):
  // the API workflow test may have added an extensions resource of its own to the document.
  paths['/zz-extensions/{id}'] = {
    get: {
      ...paths['/browsers/{id}']['get'],
      tags: ['Browsers'],
      operationId: 'getZzExtension',
      summary: 'Get an extension',
      responses: {
        '200': {
          description: 'The extension.',
          content: json({ $ref: '#/components/schemas/ZzExtension' }, EXTENSION),
        },
        ...failures(),
      },
    },
  };
  const schemas = document.components!.schemas!;
  schemas['CreateBrowserRequest'] = {
    type: 'object',
    properties: { headless: { type: 'boolean', default: false }, timeout_seconds: { type: 'integer', minimum: 1 } },
    additionalProperties: false,
  };
  schemas['ZzExtension'] = {
    type: 'object',
    properties: { id: { type: 'string' }, name: { type: 'string' } },
    required: ['id', 'name'],
    additionalProperties: false,
  };
  // Composed as OpenAPI documents often extend a schema: a base, and the browser's own properties.
  schemas['ZzSession'] = {
    type: 'object',
    properties: { session_id: { type: 'string' }, created_at: { type: 'string', format: 'date-time' } },
    required: ['session_id', 'created_at'],
  };
  schemas['Browser'] = {
    title: 'Browser',
    allOf: [
      { $ref: '#/components/schemas/ZzSession' },
      {
        type: 'object',
        properties: {
          cdp_ws_url: { type: 'string', format: 'uri' },
          headless: { type: 'boolean', default: false },
          timeout_seconds: { type: 'integer' },
        },
        required: ['cdp_ws_url', 'headless'],
      },
    ],
    unevaluatedProperties: false,
  };
  return document;
}

const document = extended();
const model = resources(document);
const profiles = model.resources.find((r) => r.key === '/profiles')!;
const browsers = model.resources.find((r) => r.key === '/browsers')!;
const validateProfile = schemaValidator(document, profiles.schema!.pointer);
const validateBrowser = schemaValidator(document, browsers.schema!.pointer);
const list = profiles.list!;

const logged: string[] = [];
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start({ document, quiet: false, logStream: { write: (line) => void logged.push(line) } });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await inspect(sandbox, '/reset', 'POST');
});

const create = (name: string, token?: string) =>
  call(sandbox, 'POST', '/profiles', { body: { name }, ...(token && { token }) });
const page = async (query: Record<string, number>, token?: string) => {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const answer = await call(sandbox, 'GET', `/profiles?${search}`, token ? { token } : {});
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as Array<Record<string, unknown>>;
};
const idOf = (item: unknown) => String((item as Record<string, unknown>)[profiles.idField]);

describe('the resources the document has', () => {
  it('reads them from the document: the id and name fields, the prefix, the paging parameters', () => {
    expect(profiles).toMatchObject({ idField: 'id', nameField: 'name', unique: ['name'], idPrefix: 'prof_' });
    expect(list.paging).toMatchObject({ limit: 'limit', offset: 'offset' });
    expect(browsers).toMatchObject({ idField: 'session_id', idPrefix: 'br_' });
  });
});

describe('a create', () => {
  it('keeps what it creates: a new id with the examples’ prefix, timestamps, the body; it reads back', async () => {
    const created = await create('created-agent');
    expect(created.status).toBe(201);
    expect(validateProfile(created.body), JSON.stringify(validateProfile.errors)).toBe(true);
    const body = created.body as Record<string, string>;
    expect(body['name']).toBe('created-agent');
    expect(idOf(body)).toMatch(new RegExp(`^${profiles.idPrefix}[0-9A-Z]{26}$`));
    expect(Date.parse(body['created_at']!)).not.toBeNaN();
    for (const path of [idOf(body), 'created-agent']) {
      const read = await call(sandbox, 'GET', `/profiles/${path}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(body);
    }
    // The generic merge applies to it too, as to the fixture's profiles.
    expect((await rename(sandbox, idOf(body), { name: 'renamed-agent' })).body).toMatchObject({
      name: 'renamed-agent',
    });
    expect((await call(sandbox, 'GET', '/profiles/renamed-agent')).body).toMatchObject({ id: idOf(body) });
  });

  it('answers 409 for a name taken in the project, on create and on update, and keeps nothing', async () => {
    const before = await page({ limit: 100 });
    const conflict = expectError(await create(P.defaultProject.name), 409, 'conflict');
    expect(conflict.message).toBe(`a profile named "${P.defaultProject.name}" already exists in this project`);
    // Unscoped profiles count in the default project.
    expectError(await create(P.unscoped.name), 409, 'conflict');
    expect(await page({ limit: 100 })).toEqual(before);
    const created = await create('fresh-agent');
    expectError(await create('fresh-agent'), 409, 'conflict');
    expectError(await rename(sandbox, P.defaultProject.id, { name: 'fresh-agent' }), 409, 'conflict');
    // Another project may have the name.
    expect((await create('fresh-agent', TOKENS.otherProject)).status).toBe(201);
    expect(created.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('keeps the auth rules: 401 without a token, 403 for a readonly token, within the caller’s project', async () => {
    expectError(await call(sandbox, 'POST', '/profiles', { body: { name: 'x' }, token: null }), 401, 'unauthorized');
    expectError(await create('x', TOKENS.readonly), 403, 'forbidden');
    const other = await create('other-project-agent', TOKENS.otherProject);
    expectError(await call(sandbox, 'GET', `/profiles/${idOf(other.body)}`), 404, 'not_found');
  });

  it('refuses a body the document refuses, naming the field', async () => {
    const refused = expectError(await call(sandbox, 'POST', '/profiles', { body: { name: '' } }), 400, 'bad_request');
    expect(refused.details?.[0]?.message).toMatch(/^name: /);
  });
});

describe('a list', () => {
  it('lists the caller’s items in creation order, paged by limit and offset', async () => {
    const fixture = (await page({ limit: 100 })).map(idOf);
    // The fixture's profiles of the caller's logical project, in fixture order.
    expect(fixture).toEqual([P.defaultProject.id, P.unscoped.id, P.unnamed.id, P.deletable.id]);
    const made = [];
    for (const name of ['list-a', 'list-b', 'list-c']) made.push(idOf((await create(name)).body));
    const all = (await page({ limit: 100 })).map(idOf);
    expect(all).toEqual([...fixture, ...made]);
    expect((await page({ limit: 2 })).map(idOf)).toEqual(all.slice(0, 2));
    expect((await page({ limit: 2, offset: 5 })).map(idOf)).toEqual(all.slice(5, 7));
    expect(await page({ offset: all.length })).toEqual([]);
    // Without a limit, the parameter's default.
    const byDefault = list.operation.query!.parameters.find((p) => p.name === 'limit')!.schema!.schema as {
      default: number;
    };
    expect((await page({})).length).toBe(Math.min(byDefault.default, all.length));
    expect((await page({}, TOKENS.otherProject)).map(idOf)).toEqual([P.otherProject.id]);
  });

  it('refuses paging values the document refuses, and an undocumented parameter', async () => {
    expectError(await call(sandbox, 'GET', '/profiles?limit=0'), 400, 'bad_request');
    expectError(await call(sandbox, 'GET', '/profiles?offset=-1'), 400, 'bad_request');
    expectError(await call(sandbox, 'GET', '/profiles?zz_sort=name'), 400, 'bad_request');
  });
});

describe('a delete', () => {
  it('deletes what was created: 204, then 404 on read and delete, and gone from the list', async () => {
    const id = idOf((await create('short-lived')).body);
    const deleted = await call(sandbox, 'DELETE', `/profiles/${id}`);
    expect(deleted.status).toBe(204);
    expectError(await call(sandbox, 'GET', `/profiles/${id}`), 404, 'not_found');
    expectError(await call(sandbox, 'DELETE', `/profiles/${id}`), 404, 'not_found');
    expect((await page({ limit: 100 })).map(idOf)).not.toContain(id);
    // The name is free again.
    expect((await create('short-lived')).status).toBe(201);
  });
});

describe('a new resource', () => {
  it('creates a browser from its body, defaults and examples, with an id of its own prefix, and reads it back', async () => {
    const created = await call(sandbox, 'POST', '/browsers', { body: { timeout_seconds: 60 } });
    expect(created.status).toBe(200);
    expect(validateBrowser(created.body), JSON.stringify(validateBrowser.errors)).toBe(true);
    const body = created.body as Record<string, unknown>;
    const id = body[browsers.idField] as string;
    expect(id).toMatch(new RegExp(`^${browsers.idPrefix}`));
    expect(id).not.toBe(BROWSER_EXAMPLE.session_id);
    expect(body).toMatchObject({ timeout_seconds: 60, headless: false, cdp_ws_url: BROWSER_EXAMPLE.cdp_ws_url });
    const read = await call(sandbox, 'GET', `/browsers/${id}`);
    expect(read.body).toEqual(body);
    expect((await call(sandbox, 'POST', '/browsers')).status).toBe(200);
  });

  it('replaces a browser (PUT): the same id and creation time, the rest from the new body and defaults', async () => {
    const created = (await call(sandbox, 'POST', '/browsers', { body: { timeout_seconds: 60, headless: true } }))
      .body as Record<string, unknown>;
    const id = created[browsers.idField] as string;
    const replaced = await call(sandbox, 'PUT', `/browsers/${id}`, { body: { timeout_seconds: 5 } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ ...created, timeout_seconds: 5, headless: false });
    expect((await call(sandbox, 'GET', `/browsers/${id}`)).body).toEqual(replaced.body);
  });

  it('answers a fixture browser with the id asked for, not the example’s', async () => {
    const read = await call(sandbox, 'GET', `/browsers/${REFS.browsers.main.id}`);
    expect(read.status).toBe(200);
    expect(validateBrowser(read.body), JSON.stringify(validateBrowser.errors)).toBe(true);
    expect((read.body as Record<string, unknown>)[browsers.idField]).toBe(REFS.browsers.main.id);
    expectError(await call(sandbox, 'GET', `/browsers/${REFS.browsers.otherProject.id}`), 404, 'not_found');
  });

  it('comes back as the fixture on reset: what was created is gone', async () => {
    const id = (await call(sandbox, 'POST', '/browsers')).body as Record<string, string>;
    await inspect(sandbox, '/reset', 'POST');
    expectError(await call(sandbox, 'GET', `/browsers/${id[browsers.idField]}`), 404, 'not_found');
  });
});

describe('a resource the API cannot create', () => {
  it('holds its examples in the project of the fixture’s first token', async () => {
    const read = await call(sandbox, 'GET', `/zz-extensions/${EXTENSION.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(EXTENSION);
    expectError(
      await call(sandbox, 'GET', `/zz-extensions/${EXTENSION.id}`, { token: TOKENS.otherProject }),
      404,
      'not_found',
    );
    expectError(await call(sandbox, 'GET', '/zz-extensions/ext_zz_none'), 404, 'not_found');
  });
});

describe('start-up', () => {
  it('says which operations the store keeps, and on which resource', () => {
    const line = logged
      .join('')
      .split('\n')
      .find((entry) => entry.includes('kept in the store'));
    for (const operation of operations(document)) {
      const role = model.roleOf(operation);
      if (role && role.action !== 'action')
        expect(line).toContain(`${operation.operationId} (${role.action} ${role.resource.key})`);
    }
    expect(sandbox.served.bySeedRules.map((o) => o.operationId).sort()).toEqual([
      'loginAuthConnection',
      'streamBrowserLogs',
    ]);
  });
});

describe('a fixture', () => {
  it('seeds any resource, checked against its schema, and reset restores it', async () => {
    const seeded = {
      ...DEFAULT_FIXTURE,
      resources: {
        '/browsers': [{ projectId: 'proj_default', value: { ...BROWSER_EXAMPLE, session_id: 'br_seeded' } }],
      },
    } satisfies SandboxFixture;
    const own = await start({ document, fixture: seeded });
    try {
      const read = await call(own, 'GET', '/browsers/br_seeded');
      expect(read.body).toEqual({ ...BROWSER_EXAMPLE, session_id: 'br_seeded' });
      expect(own.fixture.resources).toEqual({ '/browsers': ['br_seeded'] });
    } finally {
      await own.close();
    }
    const wrong = { ...seeded, resources: { '/browsers': [{ projectId: 'proj_default', value: { headless: 'no' } }] } };
    await expect(start({ document, fixture: wrong })).rejects.toThrow(/session_id: is required/);
    const nowhere = { ...seeded, resources: { '/zz-nothing': [] } };
    await expect(start({ document, fixture: nowhere })).rejects.toThrow(
      'resources["/zz-nothing"]: the document has no resource at this collection path',
    );
  });
});

describe('the log stream', () => {
  // The parameter added has a made-up name (`zz_`): the API workflow test may have added others,
  // which the sandbox names as well; the ones it was written for (the seed's) it honours.
  it('names at start-up a documented query parameter it cannot honour, and still refuses an undocumented one', async () => {
    const withMaxLines = structuredClone(document);
    const stream = (withMaxLines.paths as Record<string, Record<string, any>>)['/browsers/{id}/logs/stream']!['get'];
    (withMaxLines.components!.schemas!['LogStreamQuery'] as any).properties.zz_max_lines = {
      type: 'integer',
      minimum: 1,
    };
    stream.parameters.push({
      name: 'zz_max_lines',
      in: 'query',
      schema: { $ref: '#/components/schemas/LogStreamQuery/properties/zz_max_lines' },
    });
    const lines: string[] = [];
    const own = await start({ document: withMaxLines, quiet: false, logStream: { write: (l) => void lines.push(l) } });
    const unhonoured = (running: RunningSandbox) =>
      Object.fromEntries(running.served.unhonoured.map((u) => [u.operation.operationId, u.parameters]));
    try {
      const before = unhonoured(sandbox);
      expect(unhonoured(own)).toEqual({
        ...before,
        streamBrowserLogs: [...(before['streamBrowserLogs'] ?? []), 'zz_max_lines'],
      });
      expect(lines.join('')).toMatch(
        /query parameters the sandbox checks but does not act on: .*streamBrowserLogs [^;\n]*zz_max_lines/,
      );
      const path = `/browsers/${REFS.browsers.main.id}/logs/stream?source=path&path=${encodeURIComponent(REFS.browsers.main.path)}`;
      expect((await call(own, 'GET', `${path}&zz_max_lines=1`)).status).toBe(200);
      expectError(await call(own, 'GET', `${path}&zz_lines=1`), 400, 'bad_request');
    } finally {
      await own.close();
    }
    // The stream parameters the seed describes are all honoured.
    const seeds = ['source', 'path', 'supervisor_process', 'follow'];
    expect(
      Object.values(unhonoured(sandbox))
        .flat()
        .filter((name) => seeds.includes(name)),
    ).toEqual([]);
  });
});
