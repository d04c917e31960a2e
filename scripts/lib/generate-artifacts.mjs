// Everything generated from the OpenAPI document, computed in memory so that `generate` writes
// it and `generate --check` compares it with what is committed (the drift check).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import {
  allowingUnknownProperties,
  getAt,
  loadOpenApiDocument,
  OPENAPI_PATH,
  operations,
} from '@browser-cloud/openapi-document';

const standaloneCode = standaloneCodeModule.default ?? standaloneCodeModule;

const require = createRequire(import.meta.url);
const TYPES_DIR = new URL('../../packages/api-types/src/generated/', import.meta.url);

/**
 * Schemas that get a standalone validator. Request shapes are checked by the client before the
 * network; response shapes by the contract tests and the SSE layer.
 */
const VALIDATED_SCHEMAS = [
  'LoginRequest',
  'ProxyRef',
  'BrowserTelemetryRequestConfig',
  'RenameProfileRequest',
  'LogStreamQuery',
  'LoginResponse',
  'Profile',
  'LogEvent',
  'Error',
];

/**
 * The component schemas the service answers with: the JSON body of any response and the data of
 * each event of an event stream (`x-sse-event-data`), in document order. Each gets a second
 * validator, `validateReceived<Name>`, compiled from the same schema with unknown properties
 * allowed (allowingUnknownProperties): what the client, the CLI and the MCP server read answers
 * with, so that a property the service adds in its next release does not break them.
 */
function receivedSchemas(document) {
  const names = new Set();
  const add = (schema) => {
    const ref = schema?.$ref;
    if (typeof ref !== 'string') return;
    const name = /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];
    if (!name) throw new Error(`A response schema is $ref "${ref}", not a component schema (generate-artifacts.mjs).`);
    names.add(name);
  };
  for (const { responses } of operations(document)) {
    for (const { content } of Object.values(responses)) {
      for (const { media } of Object.values(content)) {
        add(media.schema);
        add(media.schema?.['x-sse-event-data']);
      }
    }
  }
  return [...names];
}

/**
 * Types from the loader's reading of the document, not from the file: given a file,
 * openapi-typescript reads the YAML with Redocly's parser, another reading than the loader's
 * (see readYaml in @browser-cloud/openapi-document), and walks an aliased object once.
 */
async function generateTypes(document) {
  // A copy: openapi-typescript may annotate what it is given, and the validators read the same reading.
  const ast = await openapiTS(structuredClone(document), {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
  });
  return COMMENT_HEADER + astToString(ast);
}

/** Path parameters of each operation as one closed object schema, named `<OperationId>Path`. */
function pathParameterSchemas(document) {
  const schemas = {};
  for (const { operationId, parameters } of operations(document)) {
    // The schemas as written (a `$ref` stays one), so the compiled code shares the components.
    const params = parameters.filter((p) => p.in === 'path').map((p) => p.parameter);
    const name = `${operationId[0].toUpperCase() + operationId.slice(1)}Path`;
    schemas[name] = {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
      required: params.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    };
  }
  return schemas;
}

/**
 * Ajv runtime helpers that are one self-contained function (no imports, no outer names): their
 * source is copied into the generated module instead of importing a CommonJS file, which spares
 * a bundle the CommonJS interop wrapper. The copy is Ajv's own function, so it behaves the same.
 */
const INLINED_RUNTIME = new Set(['ajv/dist/runtime/ucs2length']);

/**
 * Ajv's standalone ESM output still `require()`s its runtime helpers (ajv-validator/ajv#2209);
 * inline the self-contained ones and hoist the others into namespace imports so the module loads
 * as real ESM. Loaders disagree on what a CommonJS module's `default` is (Node:
 * `module.exports`; Vitest and some bundlers: `exports.default`), so `cjs()` recovers
 * `module.exports` from either.
 */
function requiresToImports(code) {
  const imports = [];
  const body = code.replace(
    /const (\w+) = require\("([^"]+)"\)((?:\.\w+|\["[^"]+"\])*);/g,
    (_, local, specifier, access) => {
      if (INLINED_RUNTIME.has(specifier) && access === '.default') {
        return `const ${local} = ${require(specifier).default.toString()};`;
      }
      const module = `${local}Module`;
      const file = specifier.endsWith('.js') ? specifier : `${specifier}.js`;
      imports.push(`import * as ${module} from ${JSON.stringify(file)};`);
      return `const ${local} = /* @__PURE__ */ cjs(${module})${access};`;
    },
  );
  if (imports.length > 0) {
    imports.push('const cjs = (ns) => (ns.default !== null && typeof ns.default === "object" ? ns.default : ns);');
  }
  return { imports, body };
}

/**
 * Ajv passes `parentData`, `parentDataProperty` and `rootData` to every validator it calls, for
 * keywords that look outside the value (`$data`, say). The document uses none, so no function
 * reads them: dropping them from the signatures and the calls shortens every function and call
 * site, and the error objects stay the same. Generation fails if any use remains.
 */
function withoutParentData(code) {
  const out = code
    .replaceAll('{instancePath="", parentData, parentDataProperty, rootData=data}={}', '{instancePath=""}={}')
    .replace(/,parentData(?::[\w$]+)?,parentDataProperty(?::(?:[\w$]+|"[^"]*"))?,rootData\}/g, '}');
  if (/parentData|rootData/.test(out)) {
    throw new Error('A validator reads parentData or rootData: keep them (generate-artifacts.mjs).');
  }
  return out;
}

/**
 * Each error Ajv reports is an object literal spelled out with its four keys; one small function
 * builds the same object (same keys, same order) with a call per error instead.
 */
const ERROR_FACTORY =
  'const ajvError = (instancePath, schemaPath, keyword, params) => ({instancePath,schemaPath,keyword,params});';

function withErrorFactory(code) {
  if (code.includes('ajvError')) throw new Error('Ajv output already names ajvError (generate-artifacts.mjs).');
  const out = code.replace(
    /\{instancePath(?::([^,{}]+))?,schemaPath:("[^"]*"),keyword:("\w+"),params:(\{[^{}]*\})\}/g,
    (_, at, schemaPath, keyword, params) => `ajvError(${at ?? 'instancePath'},${schemaPath},${keyword},${params})`,
  );
  if (/schemaPath:/.test(out)) throw new Error('An Ajv error object has another shape (generate-artifacts.mjs).');
  return out;
}

/**
 * Ajv names an `enum`'s values and a type list in its error params by a path into the whole
 * schema, kept as a constant (`allowedValues: schema29.properties.flow_type.enum`): a bundle
 * that uses the validator carries the whole schema for one array. The array is written in place
 * instead (the same values), and a schema constant nothing reads any more is left out.
 */
function withSchemaValuesInlined(code) {
  const declaration = /\bconst (schema\d+) = (\{.*?\});(?=const |function |export |\n|$)/g;
  const constants = new Map([...code.matchAll(declaration)].map(([, name, json]) => [name, JSON.parse(json)]));
  const inlined = code.replace(
    /\b(schema\d+)((?:\.[A-Za-z_$][\w$]*)+)\.(enum|type)\b/g,
    (whole, name, path, keyword) => {
      let value = constants.get(name);
      for (const key of [...path.slice(1).split('.'), keyword]) value = value?.[key];
      return Array.isArray(value) ? JSON.stringify(value) : whole;
    },
  );
  const read = (name) => new RegExp(`\\b${name}\\b(?! = \\{)`).test(inlined);
  return inlined.replace(declaration, (whole, name) => (read(name) ? whole : ''));
}

/** Annotations do not change what validates; dropping them keeps the generated code small. */
function withoutAnnotations(node) {
  if (Array.isArray(node)) return node.map(withoutAnnotations);
  if (node === null || typeof node !== 'object') return node;
  const kept = {};
  for (const [key, value] of Object.entries(node)) {
    if (['description', 'title', 'examples', 'example'].includes(key) || key.startsWith('x-')) continue;
    // `properties` maps names to schemas: a property may be called `description` or `title`.
    kept[key] = key === 'properties' ? mapValues(value, withoutAnnotations) : withoutAnnotations(value);
  }
  return kept;
}

function mapValues(object, fn) {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, fn(v)]));
}

const VALIDATOR_BANNER = [
  '/**',
  ' * This file was auto-generated by Ajv standalone code (scripts/generate.mjs) from openapi/openapi.yaml.',
  ' * Do not make direct changes to the file.',
  ' */',
].join('\n');

/**
 * Options of the one Ajv instance that compiles every validator, chosen for small code (measured
 * on a client app bundle, see the api-types README). Only `validateFormats` changes what
 * validates, and only as far as JSON Schema 2020-12 allows:
 * - `inlineRefs: false`: a schema used in several places (ProxyRef, the telemetry config, the
 *   nine categories) compiles to one function that every user calls, not a copy per use.
 * - `messages: false`: no English message in each error; the client writes its own messages
 *   from `keyword` and `params`.
 * - `validateFormats: false` and no ajv-formats: in JSON Schema 2020-12 `format` is an
 *   annotation unless the format-assertion vocabulary is on, and the document does not turn it
 *   on. So these validators accept a `date-time` or `uri` of any spelling. The contract tests
 *   still assert formats on live responses with @browser-cloud/openapi-document's Ajv, which adds ajv-formats.
 * - `code.optimize` stays at its default (1): higher levels produced the same code here.
 * - `loopRequired`/`loopEnum` stay at their defaults: loops over the schema made the code larger.
 * `unevaluated` and `dynamicRef` cannot be set here (Ajv2020 forces them on): see
 * withoutDynamicKeywords.
 */
const AJV_OPTIONS = {
  code: { source: true, esm: true, lines: false },
  // The client reports the first broken rule; stopping there keeps the code small and fast.
  allErrors: false,
  inlineRefs: false,
  messages: false,
  validateFormats: false,
  strict: true,
  strictRequired: false,
  keywords: ['components'],
};

const DYNAMIC_KEYWORDS = [
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
];

/**
 * Ajv2020 always compiles the bookkeeping of `unevaluated*` (which properties each function
 * evaluated) and of `$dynamicRef` (an anchors argument on every call), even when no schema uses
 * them: code in every function and a top-level assignment per function that keeps bundlers from
 * dropping unused validators. The document uses none of these keywords (checked here, so
 * generation fails the day it does), so both are turned off once `root` has been checked
 * against the 2020-12 meta-schema (which does use `$dynamicRef`) and before any validator is
 * compiled.
 */
function withoutDynamicKeywords(ajv, root) {
  const json = JSON.stringify(root);
  const used = DYNAMIC_KEYWORDS.find((keyword) => json.includes(`"${keyword}":`));
  if (used)
    throw new Error(`The document uses ${used}: the generated validators must track it (generate-artifacts.mjs).`);
  Object.assign(ajv.opts, { unevaluated: false, dynamicRef: false });
}

/** `$ref`s anywhere under `node`. */
function refsIn(node, found = new Set()) {
  if (Array.isArray(node)) {
    for (const item of node) refsIn(item, found);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.add(value);
      else refsIn(value, found);
    }
  }
  return found;
}

/**
 * `targets` ordered so that each comes after every target it references, directly or not.
 * `roots` maps each root schema's `$id` to it; a target's `ref` is `<$id>#<pointer>`, and a local
 * `$ref` inside a root stays in that root.
 */
function referencedFirst(roots, targets) {
  const byRef = new Map(targets.map((t) => [t.ref, t]));
  const ordered = [];
  const visit = (ref, seen) => {
    if (seen.has(ref)) return;
    seen.add(ref);
    const [id, pointer] = ref.split('#');
    for (const inner of refsIn(getAt(roots.get(id), pointer)))
      visit(inner.startsWith('#') ? `${id}${inner}` : inner, seen);
    // `seen` is shared by every visit, so each target is reached, and pushed, once.
    const target = byRef.get(ref);
    if (target) ordered.push(target);
  };
  const seen = new Set();
  for (const ref of byRef.keys()) visit(ref, seen);
  return ordered;
}

/**
 * One module holds every validator, so that shared sub-schemas are compiled once. Its top level
 * is function declarations, constant literals and pure-annotated calls only, and the package is
 * `sideEffects: false`: a bundler drops the validators (and sub-schemas) that nothing imports.
 */
function generateValidators(document) {
  const pathSchemas = pathParameterSchemas(document);
  const root = withoutAnnotations({
    $id: 'openapi.json',
    components: { schemas: document.components.schemas },
    $defs: pathSchemas,
  });
  // The same component schemas with unknown properties allowed, under their own `$id` so that
  // their `$ref`s stay inside the tolerant copy.
  const receivedRoot = {
    $id: 'openapi-received.json',
    components: { schemas: allowingUnknownProperties(root.components.schemas) },
  };
  const sameAs = new Map();
  const firstByJson = new Map();
  for (const [name, schema] of Object.entries(pathSchemas)) {
    const json = JSON.stringify(schema);
    if (firstByJson.has(json)) sameAs.set(name, firstByJson.get(json));
    else firstByJson.set(json, name);
  }
  const targets = [
    ...VALIDATED_SCHEMAS.map((name) => ({
      name,
      ref: `openapi.json#/components/schemas/${name}`,
      compiledAs: name,
      type: `components['schemas']['${name}']`,
    })),
    ...receivedSchemas(document).map((name) => ({
      name: `Received${name}`,
      ref: `openapi-received.json#/components/schemas/${name}`,
      compiledAs: `Received${name}`,
      type: `components['schemas']['${name}']`,
    })),
    ...Object.entries(pathSchemas).map(([name, schema]) => ({
      name,
      ref: `openapi.json#/$defs/${name}`,
      // Operations with the same path parameters share one compiled function.
      compiledAs: sameAs.get(name) ?? name,
      type: `{ ${Object.keys(schema.properties)
        .map((p) => `${p}: string`)
        .join('; ')} }`,
    })),
  ];

  const ajv = new Ajv2020(AJV_OPTIONS);
  ajv.addSchema(root);
  ajv.addSchema(receivedRoot);
  withoutDynamicKeywords(ajv, root);
  const compiled = referencedFirst(
    new Map([
      [root.$id, root],
      [receivedRoot.$id, receivedRoot],
    ]),
    targets.filter(({ name, compiledAs }) => name === compiledAs),
  );
  // Ajv resolves a `$ref` to a schema already compiled by `getSchema` to that same function, so
  // compiling the referenced validators first (ProxyRef before LoginRequest) makes the exported
  // validateProxyRef and LoginRequest's `proxy` check one function, not two copies.
  for (const { ref } of compiled) ajv.getSchema(ref);
  const source = standaloneCode(ajv, Object.fromEntries(compiled.map(({ name, ref }) => [`validate${name}`, ref])));
  const { imports, body } = requiresToImports(withSchemaValuesInlined(withErrorFactory(withoutParentData(source))));
  const untyped = new Map();
  const code = body.replace(/^"use strict";/, '').replace(/export const (\w+) = (\w+);/g, (_, exported, fn) => {
    untyped.set(exported, fn);
    return '';
  });
  const exports = targets.map(({ name, compiledAs, type }) => {
    const fn = untyped.get(`validate${compiledAs}`);
    if (!fn) throw new Error(`Ajv generated no validate${compiledAs}`);
    return `export const validate${name} = ${fn} as unknown as Validator<${type}>;`;
  });
  const contents = [
    VALIDATOR_BANNER,
    '// @ts-nocheck — generated validator code; the exports at the end carry the types.',
    "import type { components } from '../openapi.js';",
    "import type { Validator } from '../../validator.js';",
    ...imports,
    ERROR_FACTORY,
    '',
    code,
    '',
    ...exports,
    '',
  ].join('\n');
  return [{ file: 'index.ts', contents }];
}

/**
 * `info.version` as a constant, so that a consumer can tell which document a published package
 * was built from (the release step gives the packages that same version).
 */
function generateDocumentVersion(document) {
  return [
    '/**',
    ' * This file was auto-generated by scripts/generate.mjs from openapi/openapi.yaml.',
    ' * Do not make direct changes to the file.',
    ' */',
    '',
    '/** `info.version` of the OpenAPI document these types and validators were generated from. */',
    `export const DOCUMENT_VERSION = ${JSON.stringify(document.info.version)};`,
    '',
  ].join('\n');
}

/** @param documentPath the document to generate from; the repository's by default. */
export async function generateArtifacts(documentPath = OPENAPI_PATH) {
  const document = loadOpenApiDocument(documentPath);
  return [
    { path: fileURLToPath(new URL('openapi.ts', TYPES_DIR)), contents: await generateTypes(document) },
    { path: fileURLToPath(new URL('document-version.ts', TYPES_DIR)), contents: generateDocumentVersion(document) },
    ...generateValidators(document).map(({ file, contents }) => ({
      path: fileURLToPath(new URL(`validators/${file}`, TYPES_DIR)),
      contents,
    })),
  ];
}
