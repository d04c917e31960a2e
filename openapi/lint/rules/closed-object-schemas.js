/**
 * Every object schema is closed, so that a property the document does not declare is refused
 * (the contract checks and the sandbox refuse what is not declared): `additionalProperties: false`,
 * or, for an object composed by `allOf` whose members declare its properties,
 * `unevaluatedProperties: false` (JSON Schema 2020-12, §11.3: it sees the members' properties,
 * which `additionalProperties` does not).
 */
export default function closedObjectSchemas() {
  return {
    Schema: {
      enter(schema, ctx) {
        if (![schema.type].flat().includes('object')) return;
        if (schema.additionalProperties === false || schema.unevaluatedProperties === false) return;
        const key = schema.unevaluatedProperties === undefined ? 'additionalProperties' : 'unevaluatedProperties';
        ctx.report({
          message:
            'Object schemas must be closed: set `additionalProperties: false` (or `unevaluatedProperties: false` on an object composed by `allOf`).',
          location: ctx.location.child([key]),
        });
      },
    },
  };
}
