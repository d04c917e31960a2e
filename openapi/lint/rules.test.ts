import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { lintFiles, writeDocuments, type Problem } from './run-redocly.js';

type Doc = Record<string, any>;

const valid: Doc = parse(readFileSync(join(import.meta.dirname, 'fixtures/valid.yaml'), 'utf8'));
const op = (doc: Doc) => doc.paths['/things/{id}'].patch;

/**
 * One case a custom rule of redocly.yaml: a copy of the valid fixture that breaks that rule only,
 * and where the rule must point. If a rule is renamed, mistyped or silently stops matching,
 * its case fails.
 */
const cases: { rule: string; pointer: string; breakIt: (doc: Doc) => void }[] = [
  {
    rule: 'conventions/closed-object-schemas',
    pointer: '#/components/schemas/Thing/additionalProperties',
    breakIt: (doc) => delete doc.components.schemas.Thing.additionalProperties,
  },
  {
    rule: 'conventions/closed-object-schemas',
    pointer: '#/components/schemas/Rename/additionalProperties',
    breakIt: (doc) => (doc.components.schemas.Rename.additionalProperties = true),
  },
  {
    rule: 'conventions/closed-object-schemas',
    pointer: '#/components/schemas/Named/unevaluatedProperties',
    breakIt: (doc) => (doc.components.schemas.Named.unevaluatedProperties = true),
  },
  {
    rule: 'conventions/closed-object-schemas',
    pointer: '#/components/schemas/Nullable/additionalProperties',
    breakIt: (doc) => delete doc.components.schemas.Nullable.additionalProperties,
  },
  {
    rule: 'rule/operation-bearer-security',
    pointer: '#/paths/~1things~1{id}/patch/security',
    breakIt: (doc) => delete op(doc).security,
  },
  {
    rule: 'rule/security-is-bearer',
    pointer: '#/paths/~1things~1{id}/patch/security/0',
    breakIt: (doc) => {
      doc.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-Key' };
      op(doc).security = [{ apiKey: [] }];
    },
  },
  {
    rule: 'rule/operation-id-camel-case',
    pointer: '#/paths/~1things~1{id}/patch/operationId',
    breakIt: (doc) => (op(doc).operationId = 'rename_thing'),
  },
  {
    rule: 'rule/operation-tagged',
    pointer: '#/paths/~1things~1{id}/patch/tags',
    breakIt: (doc) => delete op(doc).tags,
  },
  {
    rule: 'operation-summary',
    pointer: '#/paths/~1things~1{id}/patch/summary',
    breakIt: (doc) => delete op(doc).summary,
  },
  {
    rule: 'operation-operationId',
    pointer: '#/paths/~1things~1{id}/patch/operationId',
    breakIt: (doc) => delete op(doc).operationId,
  },
  {
    rule: 'conventions/error-responses-use-error-body',
    pointer: '#/paths/~1things~1{id}/patch/responses/404/content/application~1json/schema',
    breakIt: (doc) =>
      (op(doc).responses['404'].content['application/json'].schema = { $ref: '#/components/schemas/Thing' }),
  },
  {
    rule: 'conventions/error-responses-use-error-body',
    pointer: '#/paths/~1things~1{id}/patch/responses/500',
    breakIt: (doc) => (op(doc).responses['500'] = { description: 'Failure with no body.' }),
  },
  {
    rule: 'conventions/response-examples',
    pointer: '#/paths/~1things~1{id}/patch/responses/200/content/application~1json',
    breakIt: (doc) => delete op(doc).responses['200'].content['application/json'].examples,
  },
  {
    rule: 'conventions/request-body-examples',
    pointer: '#/paths/~1things~1{id}/patch/requestBody/content/application~1json',
    breakIt: (doc) => delete op(doc).requestBody.content['application/json'].examples,
  },
  {
    rule: 'conventions/generatable',
    pointer: '#/paths/~1things~1{thing_id}/patch/parameters/0',
    breakIt: (doc) => {
      const [id] = op(doc).parameters;
      doc.paths['/things/{thing_id}'] = doc.paths['/things/{id}'];
      delete doc.paths['/things/{id}'];
      doc.paths['/things/{thing_id}'].patch.parameters = [id, { ...id, name: 'thing_id' }];
    },
  },
  {
    rule: 'conventions/generatable',
    pointer: '#/paths/~1things~1{id}/patch/operationId',
    breakIt: (doc) => (op(doc).operationId = 'sendable'),
  },
  {
    rule: 'conventions/generatable',
    pointer: '#/paths/~1things~1{id}/patch/parameters/0/style',
    breakIt: (doc) => (op(doc).parameters[0].style = 'label'),
  },
  {
    rule: 'conventions/generatable',
    pointer: '#/components/schemas/Thing/properties/name/x-unique',
    breakIt: (doc) => (doc.components.schemas.Thing.properties.name['x-unique'] = 'yes'),
  },
  {
    rule: 'conventions/generatable',
    pointer: '#/components/schemas/BrowserTelemetryCategoriesConfig/properties/console/x-default-enabled',
    breakIt: (doc) => {
      const category = { $ref: '#/components/schemas/Thing', 'x-default-enabled': 'no' };
      doc.components.schemas.BrowserTelemetryCategoriesConfig = {
        type: 'object',
        properties: { console: category },
        additionalProperties: false,
      };
      op(doc).requestBody.content['application/json'].schema = {
        $ref: '#/components/schemas/BrowserTelemetryCategoriesConfig',
      };
    },
  },
  {
    rule: 'no-invalid-media-type-examples',
    pointer: '#/paths/~1things~1{id}/patch/responses/200/content/application~1json/examples/thing/value/colour',
    breakIt: (doc) => (op(doc).responses['200'].content['application/json'].examples.thing.value.colour = 'red'),
  },
];

describe('redocly.yaml rules', () => {
  let results: Map<string, Problem[]>;
  let files: Record<string, string>;

  beforeAll(async () => {
    const documents: Record<string, Doc> = { valid };
    cases.forEach((c, i) => {
      const doc = structuredClone(valid);
      c.breakIt(doc);
      documents[`case-${i}`] = doc;
    });
    files = writeDocuments(documents);
    results = await lintFiles(Object.values(files));
  });

  it('passes the valid fixture with no problem at all', () => {
    expect(results.get(files.valid!)).toEqual([]);
  });

  it.each(cases.map((c, i) => [c.rule, c.pointer, i] as const))('%s fails at %s', (rule, pointer, i) => {
    const problems = results.get(files[`case-${i}`]!) ?? [];
    expect(problems).toContainEqual(expect.objectContaining({ ruleId: rule, severity: 'error', pointer }));
  });
});
