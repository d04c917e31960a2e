import { toIssues } from '@browser-cloud/api-types';
import {
  appendPointer,
  deref,
  escapePointerToken,
  getAt,
  loadOpenApiDocument,
  type MediaTypeObject,
  operations,
  type OpenApiDocument,
  schemaValidator,
  eventStreamData,
} from '@browser-cloud/openapi-document';
import { beforeAll, describe, expect, it } from 'vitest';
import { lintFiles, writeDocuments, type Problem } from './lint/run-redocly.js';

type Doc = Record<string, any>;
const document: Doc = loadOpenApiDocument();

interface Example {
  where: string;
  schemaPointer: string;
  value: unknown;
  mediaType?: string;
}

/** Every example of the document (parameters, request and response bodies) with its schema. */
function examplesOf(doc: Doc): Example[] {
  const found: Example[] = [];
  const fromContent = (
    base: string,
    content: Readonly<Record<string, { pointer: string; media: MediaTypeObject }>>,
  ) => {
    for (const [mediaType, { pointer, media }] of Object.entries(content)) {
      const schemaPointer = appendPointer(pointer, 'schema');
      if (media.example !== undefined)
        found.push({ where: `#${base} ${mediaType} example`, schemaPointer, value: media.example, mediaType });
      for (const [name, example] of Object.entries(media.examples ?? {})) {
        found.push({
          where: `#${base} ${mediaType} examples.${name}`,
          schemaPointer,
          value: deref<Doc>(doc, example as Doc).value,
          mediaType,
        });
      }
    }
  };
  for (const operation of operations(doc as OpenApiDocument)) {
    for (const { parameter, pointer, schema } of operation.parameters) {
      if (parameter.example !== undefined && schema !== undefined)
        found.push({ where: `#${pointer} example`, schemaPointer: schema.pointer, value: parameter.example });
    }
    if (operation.requestBody) fromContent(operation.requestBody.pointer, operation.requestBody.content);
    for (const response of Object.values(operation.responses)) fromContent(response.pointer, response.content);
  }
  return found;
}

/** What is wrong with `value` against the schema at `pointer`, one line each (the SDK's wording). */
function problemsAt(doc: Doc, pointer: string, value: unknown): string[] {
  const validate = schemaValidator(doc as OpenApiDocument, pointer);
  if (validate(value)) return [];
  return toIssues(validate.errors ?? [], value, '(root)', { prefixFields: false }).map((issue) => issue.message);
}

function exampleProblems(doc: Doc): string[] {
  return examplesOf(doc).flatMap(({ where, schemaPointer, value, mediaType }) => {
    const problems =
      mediaType === 'text/event-stream'
        ? problemsAt(doc, schemaPointer, value).concat(
            eventStreamData(value as string).flatMap((data: string) =>
              problemsAt(doc, `${schemaPointer}/x-sse-event-data`, JSON.parse(data)),
            ),
          )
        : problemsAt(doc, schemaPointer, value);
    return problems.map((p: string) => `${where}: ${p}`);
  });
}

/** The flow types a login can answer with, as the document lists them. */
const flowTypes: string[] = deref<Doc>(
  document,
  document.paths['/auth/connections/{id}/login'].post.responses['200'].content['application/json'].schema,
).properties.flow_type.enum;

describe('examples of the document', () => {
  it('cover every request body and every response, with both flow types and each error status', () => {
    const examples = examplesOf(document);
    const wheres = examples.map((e) => e.where).join('\n');
    for (const status of ['200', '400', '409']) expect(wheres).toContain(`~1login/post/responses/${status}`);
    for (const status of ['200', '409']) expect(wheres).toContain(`~1profiles~1{id_or_name}/patch/responses/${status}`);
    for (const response of ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'InternalError']) {
      expect(wheres).toContain(`#/components/responses/${response}`);
    }
    const loginExamples = examples.filter((e) => e.where.includes('~1login/post/responses/200'));
    expect(new Set(loginExamples.map((e) => (e.value as Doc).flow_type))).toEqual(new Set(flowTypes));
    const stream = examples.find((e) => e.mediaType === 'text/event-stream');
    expect(String(stream?.value).match(/^data: /gm)).toHaveLength(2);
  });

  // Compiling Ajv over the whole document takes a few seconds on a loaded machine.
  it('all validate against their schemas (Ajv, formats included)', { timeout: 60_000 }, () => {
    expect(exampleProblems(document)).toEqual([]);
  });

  it('a broken example is reported with its place', { timeout: 60_000 }, () => {
    const broken = structuredClone(document);
    const login = broken.paths['/auth/connections/{id}/login'].post;
    login.responses['200'].content['application/json'].examples.reauth.value.flow_type = 'PENDING';
    login.responses['200'].content['application/json'].examples.login.value.hosted_url = 'not a url';
    broken.paths['/browsers/{id}/logs/stream'].get.responses['200'].content[
      'text/event-stream'
    ].examples.two_events.value = 'id: 1\nevent: log\ndata: {"event":"log","timestamp":"yesterday","message":"x"}\n\n';
    const problems = exampleProblems(broken).join('\n');
    expect(problems).toContain(
      `~1login/post/responses/200 application/json examples.reauth: flow_type: must be one of ${flowTypes.map((t) => `"${t}"`).join(', ')}`,
    );
    expect(problems).toMatch(/examples\.login: hosted_url: must match format "uri"/);
    expect(problems).toMatch(/examples\.two_events: timestamp: must match format "date-time"/);
  });
});

/** JSON pointers of every schema in the document that declares `type: object`. */
function objectSchemaPointers(node: unknown, pointer = '#'): string[] {
  if (node === null || typeof node !== 'object') return [];
  const here = (node as Doc).type === 'object' ? [pointer] : [];
  return here.concat(
    Object.entries(node as Doc).flatMap(([key, child]) =>
      objectSchemaPointers(child, `${pointer}/${escapePointerToken(key)}`),
    ),
  );
}

describe('lint of the document', () => {
  const pointers = objectSchemaPointers(document);
  let results: Map<string, Problem[]>;
  let files: Record<string, string>;

  beforeAll(async () => {
    const documents: Record<string, Doc> = {};
    pointers.forEach((pointer, i) => {
      const copy = structuredClone(document);
      delete (getAt(copy, pointer) as Doc).additionalProperties;
      documents[`open-${i}`] = copy;
    });
    const badExample = structuredClone(document);
    badExample.paths['/profiles/{id_or_name}'].patch.requestBody.content[
      'application/json'
    ].examples.rename.value.name = '';
    badExample.paths['/profiles/{id_or_name}'].patch.responses['200'].content[
      'application/json'
    ].examples.renamed.value.owner = 'me';
    documents['bad-example'] = badExample;
    files = writeDocuments(documents);
    results = await lintFiles(Object.values(files));
  }, 120_000);

  it('finds every object schema, components and inline alike', () => {
    expect(pointers.length).toBeGreaterThanOrEqual(13);
    expect(pointers).toContain('#/components/schemas/BrowserTelemetryCategoryConfig');
    expect(pointers).toContain('#/components/schemas/ErrorDetail');
  });

  it('fails, naming the place, when any object schema loses `additionalProperties: false`', () => {
    const missed = pointers.filter((pointer, i) => {
      const problems = results.get(files[`open-${i}`]!) ?? [];
      return !problems.some(
        (p) =>
          p.ruleId === 'rule/closed-object-schemas' &&
          p.severity === 'error' &&
          p.pointer === `${pointer}/additionalProperties`,
      );
    });
    expect(missed).toEqual([]);
  });

  it('fails, naming the place, when an example stops matching its schema', () => {
    const problems = results.get(files['bad-example']!) ?? [];
    const invalid = problems.filter((p) => p.ruleId === 'no-invalid-media-type-examples' && p.severity === 'error');
    expect(invalid.map((p) => p.pointer)).toEqual(
      expect.arrayContaining([
        '#/paths/~1profiles~1{id_or_name}/patch/requestBody/content/application~1json/examples/rename/value/name',
        '#/paths/~1profiles~1{id_or_name}/patch/responses/200/content/application~1json/examples/renamed/value/owner',
      ]),
    );
  });
});

describe('retry hints of the document', () => {
  it('every 409 documents X-Should-Retry, a reusable header whose only value is "false"', () => {
    const conflicts = [...operations(document as OpenApiDocument)].flatMap((operation) =>
      operation.responses['409'] === undefined ? [] : [operation.responses['409']],
    );
    expect(conflicts.map((c) => c.pointer)).toHaveLength(2);
    for (const { response, headers } of conflicts) {
      expect((response.headers as Doc)['X-Should-Retry']).toEqual({ $ref: '#/components/headers/ShouldRetry' });
      expect(headers['X-Should-Retry']?.schema?.pointer).toBe('/components/headers/ShouldRetry/schema');
    }
    expect(document.components.headers.ShouldRetry.schema).toEqual({ type: 'string', enum: ['false'] });
  });
});
