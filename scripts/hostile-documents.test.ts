// Documents written as an attacker or a careless maintainer would (the shapes of issue 33): for
// each, either the operations model refuses it, naming the place (what `npm run lint` reports
// through conventions/generatable), or every generator writes code that compiles. The shapes the
// model accepts are batched into one document, generated once and type-checked by one `tsc` run
// over a scratch copy of the packages' sources with the generated code of that document.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import {
  generationProblems,
  getAt,
  loadOpenApiDocument,
  type OpenApiDocument,
  operations,
} from '@browser-cloud/openapi-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../openapi/lint/run-redocly.js';

type Json = Record<string, any>;

const string = { type: 'string' };
const pathParameter = (name: string) => ({ name, in: 'path', required: true, schema: string });
const ok = (schema?: Json) => ({
  '200': { description: 'ok', ...(schema ? { content: { 'application/json': { schema } } } : {}) },
});
const operation = (operationId: string, parameters: Json[] = [], more: Json = {}) => ({
  operationId,
  summary: operationId,
  parameters,
  responses: ok(),
  ...more,
});

/**
 * The repository's document with these paths and component schemas added. An operation of the
 * document with an operationId they take (one an API workflow draw added, such as `delete`) makes
 * room for them.
 */
function documentWith(paths: Json, schemas: Json = {}): OpenApiDocument {
  const document = structuredClone(loadOpenApiDocument()) as Json;
  const taken = new Set(
    Object.values(paths).flatMap((item: Json) => Object.values(item).map((o: Json) => o?.operationId)),
  );
  for (const { path, method, operationId } of operations(document as OpenApiDocument)) {
    if (!taken.has(operationId)) continue;
    delete document['paths'][path][method];
    if (Object.keys(document['paths'][path]).length === 0) delete document['paths'][path];
  }
  Object.assign(document['paths'], paths);
  Object.assign(document['components']['schemas'], schemas);
  return document as OpenApiDocument;
}

const WIDGET = {
  type: 'object',
  properties: { id: string, constructor: string, __proto__x: string },
  additionalProperties: false,
};

/** A body of schemas composed and annotated as JSON Schema and OpenAPI allow. */
const TRIAL = {
  type: 'object',
  additionalProperties: false,
  externalDocs: { url: 'https://docs.example/trials' },
  properties: {
    // Members that share their one property: one CLI option, given as JSON.
    pet: {
      oneOf: [{ $ref: '#/components/schemas/ZzCat' }, { $ref: '#/components/schemas/ZzDog' }],
      discriminator: { propertyName: 'kind' },
    },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
    level: { allOf: [{ type: 'integer' }, { maximum: 9 }] },
    // An enum's values are data: a `description` inside one is not an annotation.
    preset: { enum: [{ description: 'kept', x: 1 }, 'none'] },
    note: { type: 'string', xml: { name: 'Note' }, deprecated: true },
  },
};

/** Shapes the model accepts, made safe by the identifier layer; all in one document. */
const ACCEPTED = documentWith(
  {
    '/zz-widgets/{widget-id}': { delete: operation('delete', [pathParameter('widget-id')]) },
    '/zz-widgets/{widget.id}/items': {
      get: operation('widgets.get', [pathParameter('widget.id')], {
        // An inline array answer of a component whose name is no identifier.
        responses: ok({ type: 'array', items: { $ref: '#/components/schemas/Zz-Widget-Item' } }),
      }),
    },
    '/zz-widgets/{options}/{connection}': {
      get: operation('get-widget', [pathParameter('options'), pathParameter('connection')], {
        responses: ok({ $ref: '#/components/schemas/zz1.Widget' }),
      }),
    },
    '/2fa': {
      post: operation('enable2fa', [], {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Zz-Widget-Item' } } },
        },
      }),
    },
    '/zz-widgets': {
      get: operation('listZzWidgets', [
        // Left out, an optional parameter that decides repeatability does not match.
        { name: 'cursor', in: 'query', schema: string, 'x-repeatable-when-matches': '^u' },
        { name: 'constructor', in: 'query', schema: string },
        { name: 'to_string', in: 'query', schema: string },
        { name: '__proto__', in: 'query', schema: string },
      ]),
    },
    '/zz-strings': { get: operation('listZzStrings', [], { responses: ok({ $ref: '#/components/schemas/string' }) }) },
    // A body composed by allOf: its members' properties are the inputs.
    '/zz-notes': {
      post: operation('createZzNote', [], {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ZzComposed' } } },
        },
      }),
    },
    // An answer composed by allOf and closed by unevaluatedProperties.
    '/zz-pets': {
      get: operation('listZzPets', [], { responses: ok({ $ref: '#/components/schemas/ZzComposed' }) }),
    },
    '/zz-odd/{id}': { get: operation('../../../../../x', [pathParameter('id')]) },
    '/zz-things/{id}': { get: operation('constructor', [pathParameter('id')]) },
    // Schemas composed as JSON Schema allows and written with OpenAPI's own keywords.
    '/zz-trials': {
      post: operation(
        'createZzTrial',
        [{ name: 'depth', in: 'query', schema: { allOf: [{ type: 'integer' }, { minimum: 1 }] } }],
        {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ZzTrial' } } },
          },
        },
      ),
    },
  },
  {
    'Zz-Widget-Item': WIDGET,
    'zz1.Widget': WIDGET,
    string: WIDGET,
    ZzCat: { type: 'object', required: ['kind'], properties: { kind: { const: 'cat' } }, additionalProperties: false },
    ZzDog: { type: 'object', required: ['kind'], properties: { kind: { const: 'dog' } }, additionalProperties: false },
    ZzTrial: TRIAL,
    ZzComposed: {
      allOf: [
        { type: 'object', properties: { kind: { const: 'cat' } }, required: ['kind'] },
        { type: 'object', properties: { age: { type: 'integer' } } },
      ],
      unevaluatedProperties: false,
    },
  },
);

// Telemetry categories named as no identifier, or as members of every object (an own `__proto__`).
const HOSTILE_CATEGORIES: [string, boolean][] = [
  ['zz-frames', true],
  ['__proto__', false],
  ['constructor', true],
];
const categories = (ACCEPTED.components!.schemas!['BrowserTelemetryCategoriesConfig'] as Json)['properties'];
for (const [name, on] of HOSTILE_CATEGORIES) {
  const category = { $ref: '#/components/schemas/BrowserTelemetryCategoryConfig', 'x-default-enabled': on };
  Object.defineProperty(categories, name, { value: category, enumerable: true, writable: true, configurable: true });
}

/** Shapes no generator can write as they are, each in a document of its own, and a fragment of the reason. */
const REFUSED: Record<string, { document: OpenApiDocument; reason: RegExp }> = {
  'operationId sendable (the client imports sendable)': {
    document: documentWith({ '/zz-a': { get: operation('sendable') } }),
    reason: /makes the name in the generated client sendable, which the hand-written client code/,
  },
  'operationId resources (the function createClient binds with)': {
    document: documentWith({ '/zz-a': { get: operation('resources') } }),
    reason: /makes the client export resources/,
  },
  '{id_x} beside {idX}': {
    document: documentWith({
      '/zz-a/{id_x}/{idX}': { get: operation('getZzA', [pathParameter('id_x'), pathParameter('idX')]) },
    }),
    reason: /"id_x" .* and "idX" .* both make the argument idX/,
  },
  'the segment /profile beside the component Profile': {
    document: documentWith({ '/profile': { get: operation('getProfileZz') } }),
    reason: /makes the client export Profile, which the component Profile/,
  },
  'the segment /resources beside the root interface Resources': {
    document: documentWith({ '/resources': { get: operation('listResources') } }),
    reason: /makes the client export Resources/,
  },
  'a component named as the union of the log query rules (LogStreamQueryBySource)': {
    document: documentWith({}, { LogStreamQueryBySource: { type: 'object', additionalProperties: false } }),
    reason:
      /the rules of the query component LogStreamQuery .* makes the client export LogStreamQueryBySource, which the component LogStreamQueryBySource .* makes too/,
  },
  'a $dynamicRef, which no generated layer follows': {
    document: documentWith(
      { '/zz-a': { get: operation('listZzA', [], { responses: ok({ $ref: '#/components/schemas/ZzTree' }) }) } },
      { ZzTree: { $dynamicAnchor: 'node', type: 'object', properties: { kids: { $dynamicRef: '#node' } } } },
    ),
    reason: /\/components\/schemas\/ZzTree\/\$dynamicAnchor is \$dynamicAnchor, which no generated layer follows/,
  },
  'a $ref into an allOf member (the types index the component, which has no allOf)': {
    document: documentWith(
      {
        '/zz-a': {
          get: operation('listZzA', [
            { name: 'q', in: 'query', schema: { $ref: '#/components/schemas/ZzPart/allOf/0/properties/q' } },
          ]),
        },
      },
      { ZzPart: { allOf: [{ properties: { q: { type: 'string' } } }] } },
    ),
    reason:
      /the \$ref #\/components\/schemas\/ZzPart\/allOf\/0\/properties\/q at .* points inside a component schema other than through its properties/,
  },
  'a cookie parameter': {
    document: documentWith({
      '/zz-a': { get: operation('listZzA', [{ name: 'session', in: 'cookie', schema: string }]) },
    }),
    reason: /has the cookie parameter session, which no generated layer sends or checks/,
  },
  'an undeclared {id} in the path': {
    document: documentWith({ '/zz-a/{id}': { get: operation('getZzA') } }),
    reason: /has \{id\}, which no path parameter of .* declares/,
  },
  'a declared path parameter the path lacks': {
    document: documentWith({ '/zz-a': { get: operation('getZzA', [pathParameter('id')]) } }),
    reason: /the path parameter "id" at .* is not in the path \/zz-a/,
  },
  // `version` and a boolean `x` beside `no_x` are accepted: the CLI reads `--version` after a
  // command as the command's, and leaves out `--no-x` when an input takes it.
  'a query parameter json (the CLI option --json)': {
    document: documentWith({
      '/zz-a': { get: operation('listZzA', [{ name: 'json', in: 'query', schema: string }]) },
    }),
    reason: /makes the option of browser-cloud zz-a list, -- json, which the hand-written CLI/,
  },
  'a non-Latin operationId (MCP hosts take ASCII tool names)': {
    document: documentWith({ '/zz-a': { get: operation('получитьПрофили') } }),
    reason: /which hosts refuse/,
  },
  'a path in another script (a URL carries it only percent-encoded)': {
    document: documentWith({ '/профили': { get: operation('listProfilesRu') } }),
    reason: /the path \/профили has "п", which a URL carries only percent-encoded/,
  },
  'a query parameter filter[id] (hosts refuse the MCP argument, and every request while it is listed)': {
    document: documentWith({
      '/zz-a': { get: operation('listZzA', [{ name: 'filter[id]', in: 'query', schema: { type: 'string' } }]) },
    }),
    reason: /the query input filter\[id\] of .* makes an argument of the MCP tool list_zz_a, which hosts refuse/,
  },
  'a body property in another script (hosts refuse the MCP argument)': {
    document: documentWith({
      '/zz-a': {
        post: operation('createZzA', [], {
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { имя: { type: 'string' } }, additionalProperties: false },
              },
            },
          },
        }),
      },
    }),
    reason: /the body input имя of .* makes an argument of the MCP tool create_zz_a/,
  },
  'a header parameter Authorization (OpenAPI says to ignore it; a tool argument would replace the token)': {
    document: documentWith({
      '/zz-a': { get: operation('listZzA', [{ name: 'authorization', in: 'header', schema: { type: 'string' } }]) },
    }),
    reason: /has the header parameter authorization, which OpenAPI says to ignore/,
  },
  'a text/plain answer (the client reads JSON and event streams)': {
    document: documentWith({
      '/zz-a': {
        get: operation('getZzA', [], {
          responses: { '200': { description: 'ok', content: { 'text/plain': { schema: string } } } },
        }),
      },
    }),
    reason: /answers text\/plain: the generated client reads JSON answers and event streams only/,
  },
  'an event stream taking an argument of the MCP tail tool': {
    document: (() => {
      const document = documentWith({});
      const stream = [...operations(document)].find((o) => o.streaming)!;
      const maxEvents = { name: 'max_events', in: 'query' as const, schema: { type: 'integer' } };
      stream.operation.parameters = [...(stream.operation.parameters ?? []), maxEvents];
      return document;
    })(),
    reason: /input max_events of the operation .* takes an argument the MCP server's tail tool has itself/,
  },
  'a method that is also a resource (client.zzA.get beside client.zzA.get.x)': {
    document: documentWith({
      '/zz-a': { get: operation('getZzA') },
      '/zz-a/get/x': { get: operation('readZzA') },
    }),
    reason: /makes the method client\.zzA\.get, which is also a resource of the operation readZzA/,
  },
  'a telemetry category without x-default-enabled': {
    document: (() => {
      const document = documentWith({}) as Json;
      document['components']['schemas']['BrowserTelemetryCategoriesConfig']['properties']['zz_audio'] = {
        $ref: '#/components/schemas/BrowserTelemetryCategoryConfig',
      };
      return document as OpenApiDocument;
    })(),
    reason: /x-default-enabled at .*\/zz_audio must be true or false/,
  },
  'two operations making one CLI command': {
    document: documentWith({
      '/zz-a': { get: operation('listZzA') },
      '/zz_a': { get: operation('listZzA2', [], { 'x-sdk-verb': 'list' }) },
    }),
    reason: /CLI command zz-a list/,
  },
};

describe('a document the model refuses', () => {
  it.each(Object.entries(REFUSED))('%s: refused, naming the place', (_, { document, reason }) => {
    const problems = generationProblems(document);
    expect(problems.map((p) => p.message).join('\n')).toMatch(reason);
    // Each problem points at a place of the document, where the lint reports it.
    for (const { pointer } of problems) expect(getAt(document, pointer), pointer).toBeDefined();
  });

  it('the repository document and the accepted shapes are not refused', () => {
    expect(generationProblems(loadOpenApiDocument())).toEqual([]);
    expect(generationProblems(ACCEPTED)).toEqual([]);
  });
});

describe('a document the model accepts, with every hostile shape it makes safe', () => {
  const PACKAGES = ['api-types', 'client', 'cli', 'mcp'];
  let scratch: string;
  let written: { path: string; contents: string }[];

  beforeAll(async () => {
    // Inside the repository, so that the packages' dependencies resolve from its node_modules.
    scratch = mkdtempSync(join(REPO_ROOT, '.hostile-scratch-'));
    const documentPath = join(scratch, 'openapi.json');
    writeFileSync(documentPath, JSON.stringify(ACCEPTED));
    const generators = [
      '@browser-cloud/tooling/generate-artifacts',
      '../packages/client/scripts/client-operations.mjs',
      '../packages/cli/scripts/command-definitions.mjs',
      '../packages/mcp/scripts/tool-definitions.mjs',
      '../apps/contract-tests/scripts/case-files.mjs',
    ];
    written = [];
    for (const generator of generators) {
      const module = await import(generator);
      const argument = generator.includes('case-files') ? ACCEPTED : documentPath;
      for (const file of await module.generateArtifacts(argument)) {
        expect(file.path.startsWith(module.OUTPUT_DIR), `${generator} writes ${file.path}`).toBe(true);
        written.push(file);
      }
    }
    for (const name of PACKAGES) {
      cpSync(join(REPO_ROOT, 'packages', name, 'src'), join(scratch, name, 'src'), {
        recursive: true,
        filter: (source) => !source.includes(`${sep}generated`) && !/\.test(-d)?\.ts$|test-support/.test(source),
      });
      cpSync(join(REPO_ROOT, 'packages', name, 'package.json'), join(scratch, name, 'package.json'));
      // A package's own dependencies (a version the root does not hoist) resolve as in the package.
      const own = join(REPO_ROOT, 'packages', name, 'node_modules');
      if (existsSync(own)) symlinkSync(own, join(scratch, name, 'node_modules'), 'dir');
    }
    for (const { path, contents } of written) {
      const inPackage = /packages[/\\]([^/\\]+)[/\\](src[/\\].*)$/.exec(path);
      if (!inPackage) continue;
      const target = join(scratch, inPackage[1]!, inPackage[2]!);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, contents);
    }
    const paths = {
      '@browser-cloud/api-types': ['./api-types/src/index.ts'],
      '@browser-cloud/api-types/validators': ['./api-types/src/generated/validators/index.ts'],
      '@browser-cloud/client': ['./client/src/index.ts'],
      '@browser-cloud/client/raw': ['./client/src/raw.ts'],
    };
    const tsconfig = {
      extends: relative(scratch, join(REPO_ROOT, 'tsconfig.base.json')),
      compilerOptions: { noEmit: true, types: ['node'], paths },
      include: PACKAGES.map((name) => `${name}/src`),
    };
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(tsconfig));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('type-checks: the client, the CLI, the MCP server and the types, generated from it', () => {
    const tsc = join(REPO_ROOT, 'node_modules', '.bin', 'tsc');
    const result = spawnSync(tsc, ['-p', join(scratch, 'tsconfig.json')], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 180_000);

  it('lists telemetry categories named as no identifier, or as members of every object, with their defaults', async () => {
    const scratchCategories = join(scratch, 'api-types', 'src', 'telemetry', 'categories.ts');
    const { TELEMETRY_CATEGORIES, DEFAULT_TELEMETRY_CATEGORIES } = await import(scratchCategories);
    const names = HOSTILE_CATEGORIES.map(([name]) => name);
    expect(TELEMETRY_CATEGORIES.slice(-names.length)).toEqual(names);
    const defaults = HOSTILE_CATEGORIES.filter(([, on]) => on).map(([name]) => name);
    expect(DEFAULT_TELEMETRY_CATEGORIES.slice(-defaults.length)).toEqual(defaults);
    expect(DEFAULT_TELEMETRY_CATEGORIES).not.toContain('__proto__');
  });

  it('names every operation safely: a function per operation, its case file inside its folder', () => {
    const client = written.filter(({ path }) => /client[/\\]src[/\\]generated/.test(path));
    const source = client.map(({ contents }) => contents).join('\n');
    for (const { names } of operations(ACCEPTED)) {
      expect(source, names.function).toContain(`export function ${names.function}(`);
    }
    expect(source).toContain('export function delete_(');
    expect(source).toContain('export function constructor_(');
    const cases = written.filter(({ path }) => path.endsWith('.contract.test.ts')).map(({ path }) => path);
    expect(cases.map((path) => path.split(/[/\\]/).at(-1))).toContain('x.contract.test.ts');
  });

  it('validates composed and annotated schemas as JSON Schema says, OpenAPI keywords being annotations', async () => {
    const { validateZzTrial } = await import(join(scratch, 'api-types', 'src', 'generated', 'validators', 'index.ts'));
    const valid = (value: unknown) => validateZzTrial(value) as boolean;
    expect(
      valid({ pet: { kind: 'cat' }, pair: ['a', 1], level: 9, preset: { description: 'kept', x: 1 }, note: 'n' }),
    ).toBe(true);
    expect(valid({ pet: { kind: 'cow' } })).toBe(false);
    expect(valid({ pair: ['a', 1, 2] })).toBe(false);
    expect(valid({ level: 10 })).toBe(false);
    expect(valid({ level: 1.5 })).toBe(false);
    expect(valid({ preset: { x: 1 } })).toBe(false);
  });

  it('validates an allOf closed by unevaluatedProperties: strictly as sent, tolerantly as received', async () => {
    const validators = await import(join(scratch, 'api-types', 'src', 'generated', 'validators', 'index.ts'));
    expect(validators.validateZzComposed({ kind: 'cat', age: 3 })).toBe(true);
    expect(validators.validateZzComposed({ kind: 'cat', age: 3, toy: 'ball' })).toBe(false);
    expect(validators.validateReceivedZzComposed({ kind: 'cat', age: 3, toy: 'ball' })).toBe(true);
    expect(validators.validateReceivedZzComposed({ kind: 'cat', age: 'three' })).toBe(false);
    // Tracking evaluated properties leaves the module tree-shakable: one validator bundles alone.
    const { build } = await import('esbuild');
    const app = await build({
      stdin: {
        contents: `import { validateZzComposed } from './api-types/src/generated/validators/index.ts';
          console.log(validateZzComposed({}));`,
        resolveDir: scratch,
        loader: 'ts',
      },
      bundle: true,
      minify: true,
      write: false,
      format: 'esm',
    });
    const text = app.outputFiles[0]!.text;
    expect(text).toContain('age');
    expect(text).not.toContain('supervisor_process');
  });

  it('gives the CLI an option per input, typed as the server reads it', async () => {
    const { commandDefinitions } = await import('../packages/cli/scripts/command-definitions.mjs');
    const trial = commandDefinitions(ACCEPTED).find((c: Json) => c.operationId === 'createZzTrial');
    const options = Object.fromEntries(trial!.options.map((o: Json) => [o.flag, o.type]));
    const note = commandDefinitions(ACCEPTED).find((c: Json) => c.operationId === 'createZzNote');
    expect([...note!.arguments, ...note!.options].map((o: Json) => [o.flag, o.type])).toEqual([
      ['kind', 'string'],
      ['age', 'integer'],
    ]);
    expect(options).toEqual({
      depth: 'integer',
      pet: 'json',
      pair: 'json',
      level: 'integer',
      preset: 'json',
      note: 'string',
    });
  });

  it('tests an optional value that decides repeatability only when it is given', () => {
    const widgets = written.find(({ path }) => /resources[/\\]zz-widgets\.ts$/.test(path))!.contents;
    // The query as it is sent (`sentQuery`, parsed back from the checked text).
    expect(widgets).toMatch(/sentQuery\['cursor'\] !== undefined && \/\^u\/u\.test\(/);
  });
});
