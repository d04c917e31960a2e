export { ajvRef, createAjv, documentAjv, schemaValidator } from './document-ajv.js';
export { OpenApiDocumentError } from './document-error.js';
export type { MediaTypeObject, OpenApiDocument, OperationObject, PathItemObject } from './document-types.js';
export { eventStreamData } from './event-stream-data.js';
export {
  camelCase,
  constantCase,
  isIdentifier,
  kebabCase,
  pascalCase,
  safeIdentifier,
  safeProperty,
  singular,
  snakeCase,
  words,
} from './identifiers.js';
export {
  assertGeneratable,
  componentTypeName,
  type GenerationProblem,
  generationProblems,
  HAND_WRITTEN_NAMES,
  inputFlags,
  MCP_NAME_RULES,
  resourceFactoryName,
  resourceFileName,
  resourceInterfaceName,
} from './generation-check.js';
export { jsonDifference } from './json-difference.js';
export { appendPointer, escapePointerToken, formatPointer, getAt, parsePointer } from './json-pointer.js';
export * from './load-document.js';
export { type ObjectShape, objectShape } from './object-shape.js';
export { operationSignature } from './operation-signature.js';
export * from './operations.js';
export { readYaml, YamlReadError } from './read-yaml.js';
export { schemaTypes } from './schema-types.js';
export { deref, inlineRefs, resolveNode, resolveRef } from './resolve-ref.js';
export {
  TELEMETRY_CATEGORIES_SCHEMA,
  type TelemetryCategorySpec,
  telemetryCategories,
} from './telemetry-categories.js';
export { allowingUnknownProperties } from './tolerant-schema.js';
export type { ValidateFunction } from 'ajv/dist/2020.js';
export {
  type CrudAction,
  type ListPaging,
  type OperationRole,
  type Resource,
  type ResourceList,
  type ResourceModel,
  resources,
} from './resources.js';
export { ParameterTextError, readQueryValues, readSimpleValue, typedText } from './parameter-values.js';
export { type QueryRule, type QueryRules, queryRules, queryUnionName } from './query-rules.js';
