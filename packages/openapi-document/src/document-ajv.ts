import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import { escapePointerToken, getAt, parsePointer } from './json-pointer.js';

/** The `$id` under which the whole document is registered with Ajv. */
const DOCUMENT_ID = 'openapi.json';

/**
 * An Ajv for JSON Schema 2020-12 (the dialect of OpenAPI 3.1) that reports every error and
 * asserts the standard `format`s (`date-time`, `uri`…), which the document's schemas rely on.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, ...options });
  // CommonJS: under NodeNext the default import is `module.exports`, whose `default` is the plugin.
  ajvFormats.default(ajv);
  return ajv;
}

/**
 * The `$ref` that names a place of the document in {@link documentAjv}: `/paths/~1profiles~1{id}/patch` →
 * `openapi.json#/paths/~1profiles~1%7Bid%7D/patch` (tokens percent-encoded, as URIs require).
 */
export function ajvRef(pointer: string): string {
  return `${DOCUMENT_ID}#${parsePointer(pointer)
    .map((token) => `/${encodeURIComponent(escapePointerToken(token))}`)
    .join('')}`;
}

// Keyed by the document object: its validators live as long as it does, and each schema is
// compiled once for it (Ajv keeps what `getSchema` compiles) however many requests, responses or
// examples it checks.
const ajvByDocument = new WeakMap<OpenApiDocument, Ajv2020>();

/**
 * The one Ajv of `document`, made once, with the whole document registered, so that schemas are
 * `$ref`s into it ({@link ajvRef}) and check the document itself, never a copy. `strict: false`,
 * since OpenAPI keywords (`example`, `x-…`) sit beside the schemas; `verbose`, so that errors
 * carry their schema (whose `description` explains a failed `not`).
 * @throws OpenApiDocumentError for a document that is not OpenAPI 3.1 (whose schemas are 2020-12).
 */
export function documentAjv(document: OpenApiDocument): Ajv2020 {
  let ajv = ajvByDocument.get(document);
  if (ajv === undefined) {
    if (!document.openapi.startsWith('3.1.')) {
      throw new OpenApiDocumentError(
        `schemas of OpenAPI ${document.openapi} are not JSON Schema 2020-12; only 3.1 documents can be validated against`,
      );
    }
    ajv = createAjv({ strict: false, verbose: true });
    ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    ajvByDocument.set(document, ajv);
  }
  return ajv;
}

/**
 * A validator of the schema at `pointer` (string or `#` fragment form, such as
 * `/components/schemas/Profile`), compiled once per document by {@link documentAjv}.
 * @throws OpenApiDocumentError when the document has no schema at `pointer`.
 */
export function schemaValidator(document: OpenApiDocument, pointer: string): ValidateFunction {
  const validate =
    getAt(document, pointer) === undefined ? undefined : documentAjv(document).getSchema(ajvRef(pointer));
  if (validate === undefined) throw new OpenApiDocumentError(`the OpenAPI document has no schema at "${pointer}"`);
  return validate as ValidateFunction;
}
