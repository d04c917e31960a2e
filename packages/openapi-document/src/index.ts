export {
  ajvRef,
  createAjv,
  createDocumentAjv,
  DOCUMENT_ID,
  documentAjv,
  schemaValidator,
} from './document-ajv.js';
export { OpenApiDocumentError } from './document-error.js';
export type {
  ComponentsObject,
  HeaderObject,
  JsonSchema,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  PathItemObject,
  Reference,
  RequestBodyObject,
  ResponseObject,
} from './document-types.js';
export { eventStreamData } from './event-stream-data.js';
export {
  appendPointer,
  escapePointerToken,
  formatPointer,
  getAt,
  JsonPointerError,
  parsePointer,
  requireAt,
  unescapePointerToken,
} from './json-pointer.js';
export { type JsonDifference, jsonDifference } from './json-difference.js';
export { loadOpenApiDocument, OPENAPI_PATH, parseOpenApiDocument } from './load-document.js';
export {
  findOperation,
  findResponse,
  HTTP_METHODS,
  type HttpMethod,
  type Operation,
  type OperationHeader,
  type OperationMedia,
  isRepeatable,
  type OperationBody,
  type OperationParameter,
  type OperationQuery,
  type OperationSuccess,
  type Repeatability,
  type SdkName,
  type OperationRequestBody,
  type OperationResponse,
  operations,
  type SchemaAt,
} from './operations.js';
export { type OperationArgument, operationSignature } from './operation-signature.js';
export {
  readYaml,
  type YamlPosition,
  type YamlProblem,
  type YamlReading,
  YamlReadError,
  yamlProblems,
} from './read-yaml.js';
export { renderOpenApiDocument, writeRenderedDocument } from './render-document.js';
export { deref, externalRefs, inlineRefs, isReference, refPointer, resolveNode, resolveRef } from './resolve-ref.js';
export { allowingUnknownProperties } from './tolerant-schema.js';
export type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
