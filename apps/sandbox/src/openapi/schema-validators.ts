import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from './create-ajv.js';
import type { OpenApiDocument } from './document.js';
import { DOCUMENT_ID, documentRef } from './route-schemas.js';

interface Compiled {
  ajv: Ajv2020;
  byPointer: Map<string, ValidateFunction>;
}

// Keyed by the document object, so a document's validators live as long as the document does
// and each schema is compiled once for it, however many requests or fixtures it checks.
const compiledByDocument = new WeakMap<OpenApiDocument, Compiled>();

/**
 * A validator of the schema at `pointer` (a JSON pointer into the document, such as
 * `/components/schemas/Profile`), compiled by full Ajv: every error, real messages, and the
 * document's `format`s asserted (ajv-formats). The generated validators of
 * `@browser-cloud/api-types` carry no messages and treat `format` as an annotation, which suits
 * the client but not a server that must never send a malformed date.
 */
export function schemaValidator(document: OpenApiDocument, pointer: string): ValidateFunction {
  const compiled = compiledFor(document);
  let validate = compiled.byPointer.get(pointer);
  if (validate === undefined) {
    validate = compiled.ajv.compile({ $ref: documentRef(pointer) });
    compiled.byPointer.set(pointer, validate);
  }
  return validate;
}

/**
 * The one full Ajv of a document, with the document registered under {@link DOCUMENT_ID}:
 * every error, messages, formats asserted, no type coercion. Fastify's body validators and
 * {@link schemaValidator} share it, so the document is registered once.
 */
export function documentAjv(document: OpenApiDocument): Ajv2020 {
  return compiledFor(document).ajv;
}

function compiledFor(document: OpenApiDocument): Compiled {
  let compiled = compiledByDocument.get(document);
  if (compiled === undefined) {
    // `strict: false`: the document holds OpenAPI keywords (`example`, `x-…`) beside its schemas.
    // `verbose`: errors carry their schema, whose description explains a failed `not`.
    const ajv = createAjv({ strict: false, verbose: true });
    ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    compiled = { ajv, byPointer: new Map() };
    compiledByDocument.set(document, compiled);
  }
  return compiled;
}
