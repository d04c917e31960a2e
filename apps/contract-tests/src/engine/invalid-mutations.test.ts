import { describe, expect, it } from 'vitest';
import { deref, loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { createDocumentValidator } from './judge.js';
import { minimalValue, mutationsOf } from './invalid-mutations.js';

const document = loadOpenApiDocument();
const validator = createDocumentValidator(document);
const d = (node: unknown) => deref(document, node) as Record<string, unknown>;
const schema = (name: string) => `#/components/schemas/${name}`;
const rules = (name: string, value: unknown, textual = false) =>
  mutationsOf({ $ref: schema(name) }, value, { deref: d, textual }).map((m) => m.rule);

describe('mutationsOf', () => {
  it('breaks each keyword of the rename body once: required, unknown property, type, both lengths', () => {
    const mutations = mutationsOf({ $ref: schema('RenameProfileRequest') }, { name: 'ok' }, { deref: d });
    expect(mutations.map((m) => m.rule).sort()).toEqual(
      [
        'additionalProperties: (root) with an unknown property',
        'maxLength: /name longer than 255',
        'minLength: /name shorter than 1',
        'required: /name missing',
        'type: /name of the wrong type',
      ].sort(),
    );
    expect(mutations.find((m) => m.rule.startsWith('maxLength'))?.value).toEqual({ name: 'x'.repeat(256) });
    // Every one is really invalid.
    for (const m of mutations) expect(validator.validateAt(schema('RenameProfileRequest'), m.value)).not.toEqual([]);
  });

  it('breaks a oneOf both ways and the if/then of the telemetry config', () => {
    const login = {
      proxy: { id: 'prx_1' },
      browser_telemetry: { enabled: false },
    };
    const found = rules('LoginRequest', login);
    expect(found).toContain('oneOf: /proxy matching every branch');
    expect(found).toContain('oneOf: /proxy matching no branch');
    expect(found).toContain('if/then: /browser_telemetry with enabled=false forbids browser');
    expect(found).toContain('minLength: /proxy/id shorter than 1');
    const both = mutationsOf({ $ref: schema('LoginRequest') }, login, { deref: d }).find((m) =>
      m.rule.includes('every branch'),
    );
    expect(both?.value).toMatchObject({ proxy: { id: 'x', name: 'x' } });
    expect(validator.validateAt(schema('LoginRequest'), both?.value)).not.toEqual([]);
  });

  it('breaks the cross-parameter rules of the log stream query, and leaves strings alone in text', () => {
    const found = rules('LogStreamQuery', { source: 'supervisor', supervisor_process: 'chromium', follow: true }, true);
    expect(found).toContain('if/then: (root) with source="path" requires path');
    expect(found).toContain('if/then: (root) with source="supervisor" requires supervisor_process');
    expect(found).toContain('enum: /source outside the enum');
    expect(found).toContain('type: /follow of the wrong type');
    // A number for a string parameter would arrive as a valid string.
    expect(found).not.toContain('type: /supervisor_process of the wrong type');
  });

  it('leaves the type of an array alone in text, where one value is an array of one', () => {
    const names = { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 2 };
    const query = { type: 'object', properties: { names, limit: { type: 'integer' } } };
    const found = mutationsOf(query, { names: ['a'], limit: 1 }, { deref: d, textual: true });
    expect(found.map((m) => m.rule)).not.toContain('type: /names of the wrong type');
    expect(found.map((m) => m.rule)).toContain('type: /limit of the wrong type');
    // As a body value the array is JSON, where a string is the wrong type.
    const json = mutationsOf(query, { names: ['a'], limit: 1 }, { deref: d });
    expect(json.map((m) => m.rule)).toContain('type: /names of the wrong type');
  });

  it('offers nothing to break in a value the schema does not constrain', () => {
    expect(mutationsOf({}, 'anything', { deref: d })).toEqual([]);
  });
});

describe('minimalValue', () => {
  it('is the smallest value each schema accepts (if/then aside: mutations are re-checked by Ajv)', () => {
    for (const name of ['LoginRequest', 'RenameProfileRequest', 'Error', 'LoginResponse', 'ProxyRef']) {
      expect(validator.validateAt(schema(name), minimalValue({ $ref: schema(name) }, d)), name).toEqual([]);
    }
  });
});
