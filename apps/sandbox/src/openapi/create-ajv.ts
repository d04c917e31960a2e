import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the
// module object, so take its `default` when there is one.
const addFormats = ((formatsModule as unknown as { default?: typeof formatsModule }).default ??
  formatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** An Ajv for JSON Schema 2020-12 (the dialect of OpenAPI 3.1) with the standard formats. */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, ...options });
  addFormats(ajv);
  return ajv;
}
