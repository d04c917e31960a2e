import { toIssues } from '@browser-cloud/api-types';
import {
  appendPointer,
  deref,
  escapePointerToken,
  formatPointer,
  getAt,
  parsePointer,
  resolveNode,
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
  /** Where the example's value is written (in a Media Type Object: `…/examples/<name>/value`). */
  pointer: string;
  /** The Media Type or Parameter Object that holds the example. */
  holder: string;
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
      const holder = { holder: pointer, schemaPointer, mediaType };
      if (media.example !== undefined) {
        const at = appendPointer(pointer, 'example');
        found.push({ where: `#${base} ${mediaType} example`, pointer: at, value: media.example, ...holder });
      }
      for (const [name, example] of Object.entries(media.examples ?? {})) {
        const { node, pointer: at } = resolveNode<Doc>(doc, example as Doc, appendPointer(pointer, 'examples', name));
        found.push({
          where: `#${base} ${mediaType} examples.${name}`,
          pointer: appendPointer(at, 'value'),
          value: node.value,
          ...holder,
        });
      }
    }
  };
  for (const operation of operations(doc as OpenApiDocument)) {
    for (const { parameter, pointer, schema } of operation.parameters) {
      if (parameter.example !== undefined && schema !== undefined) {
        const at = appendPointer(pointer, 'example');
        found.push({
          where: `#${pointer} example`,
          pointer: at,
          holder: pointer,
          schemaPointer: schema.pointer,
          value: parameter.example,
        });
      }
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

/** The Media Type Objects of every response with content. */
const responseMedia = [...operations(document as OpenApiDocument)].flatMap((operation) =>
  Object.values(operation.responses).flatMap((response) => Object.values(response.content)),
);
/** The Media Type Objects of every request body and response with content. */
const allMedia = [
  ...[...operations(document as OpenApiDocument)].flatMap((operation) =>
    Object.values(operation.requestBody?.content ?? {}),
  ),
  ...responseMedia,
];

/** The first example of each kind of media (JSON, event stream), the place its value is written. */
const firstExample = (examples: Example[], json: boolean) =>
  examples.find(
    (e) => e.mediaType !== undefined && e.mediaType.includes('json') === json && e.pointer.includes('/examples/'),
  )!;

describe('examples of the document', () => {
  it('cover every request body and every response, and every value of an enum of a response', () => {
    const examples = examplesOf(document);
    const holders = new Set(examples.map((e) => e.holder));
    expect(allMedia.filter((media) => !holders.has(media.pointer)).map((m) => m.pointer)).toEqual([]);
    // A request sends one value of an enum; a response may answer any, and its examples show each.
    for (const media of responseMedia) {
      const values = examples.filter((e) => e.holder === media.pointer).map((e) => e.value as Doc);
      for (const [name, property] of Object.entries((media.schema?.schema as Doc | undefined)?.properties ?? {})) {
        const { enum: allowed } = deref<Doc>(document, property as Doc);
        if (allowed) expect(new Set(values.map((v) => v[name])), `${media.pointer} ${name}`).toEqual(new Set(allowed));
      }
    }
    const streams = examples.filter((e) => e.mediaType === 'text/event-stream');
    expect(streams.length).toBeGreaterThan(0);
    for (const stream of streams) expect(eventStreamData(stream.value as string).length).toBeGreaterThan(0);
  });

  it('all validate against their schemas (Ajv, formats included)', () => {
    expect(exampleProblems(document)).toEqual([]);
  });

  it('a broken example is reported with its place', () => {
    const broken = structuredClone(document);
    const [json, stream] = [firstExample(examplesOf(broken), true), firstExample(examplesOf(broken), false)];
    (getAt(broken, json.pointer) as Doc).zz_not_in_document = 1;
    setAt(broken, stream.pointer, 'id: 1\nevent: log\ndata: {"zz_not_in_document":1}\n\n');
    const problems = exampleProblems(broken).join('\n');
    expect(problems).toContain(`${json.where}: zz_not_in_document: is not a known property`);
    expect(problems).toContain(`${stream.where}: zz_not_in_document: is not a known property`);
  });
});

/** Sets the value at `pointer` (its parent must exist). */
function setAt(root: unknown, pointer: string, value: unknown) {
  const tokens = parsePointer(pointer);
  (getAt(root, formatPointer(tokens.slice(0, -1))) as Doc)[tokens.at(-1)!] = value;
}

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
  // A request example and a response example, each given a property that no schema declares.
  const jsonExamples = examplesOf(document).filter(
    (e) => e.mediaType?.includes('json') && e.pointer.includes('/examples/'),
  );
  const badExamples = [
    jsonExamples.find((e) => e.holder.includes('/requestBody/'))!,
    jsonExamples.find((e) => e.holder.includes('/responses/'))!,
  ];
  let results: Map<string, Problem[]>;
  let files: Record<string, string>;

  beforeAll(async () => {
    const documents: Record<string, Doc> = {};
    pointers.forEach((pointer, i) => {
      const copy = structuredClone(document);
      // What closes it: additionalProperties, or unevaluatedProperties for an object composed by allOf.
      delete (getAt(copy, pointer) as Doc).additionalProperties;
      delete (getAt(copy, pointer) as Doc).unevaluatedProperties;
      documents[`open-${i}`] = copy;
    });
    const badExample = structuredClone(document);
    for (const example of badExamples) (getAt(badExample, example.pointer) as Doc).zz_not_in_document = 1;
    documents['bad-example'] = badExample;
    files = writeDocuments(documents);
    results = await lintFiles(Object.values(files));
  });

  it('finds every object schema, components and inline alike', () => {
    const components = Object.entries(document.components.schemas as Record<string, Doc>)
      .filter(([, schema]) => schema.type === 'object')
      .map(([name]) => `#/components/schemas/${escapePointerToken(name)}`);
    expect(components.length).toBeGreaterThan(0);
    expect(pointers).toEqual(expect.arrayContaining(components));
    const inline = structuredClone(document);
    inline.components.schemas[components[0]!.split('/').at(-1)!].properties.zz_inline = { type: 'object' };
    expect(objectSchemaPointers(inline)).toContain(`${components[0]}/properties/zz_inline`);
  });

  it('fails, naming the place, when any object schema loses `additionalProperties: false` (or `unevaluatedProperties: false`)', () => {
    const missed = pointers.filter((pointer, i) => {
      const problems = results.get(files[`open-${i}`]!) ?? [];
      return !problems.some(
        (p) =>
          p.ruleId === 'conventions/closed-object-schemas' &&
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
      expect.arrayContaining(badExamples.map((e) => `#${e.pointer.replace(/^#/, '')}/zz_not_in_document`)),
    );
  });
});

describe('retry hints of the document', () => {
  it('every 409 documents X-Should-Retry, a reusable header whose only value is "false"', () => {
    const conflicts = [...operations(document as OpenApiDocument)].flatMap((operation) =>
      operation.responses['409'] === undefined ? [] : [operation.responses['409']],
    );
    expect(conflicts.length).toBeGreaterThan(0);
    for (const { response, headers } of conflicts) {
      expect((response.headers as Doc)['X-Should-Retry']).toEqual({
        $ref: expect.stringMatching(/^#\/components\/headers\//),
      });
      expect(headers['X-Should-Retry']?.schema?.schema).toEqual({ type: 'string', enum: ['false'] });
    }
  });
});
