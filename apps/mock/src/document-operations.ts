import * as generatedValidators from '@browser-cloud/api-types/validators';
import {
  type JsonSchema,
  loadOpenApiDocument,
  type OpenApiDocument,
  operations,
} from '@browser-cloud/openapi-document';
import { type DocumentOperation, type OperationRules, operationRules } from './operation-rules.js';

type Security = DocumentOperation['security'];

/** The front's checks for every operation of the document at `path` (the repository's by default), by the generated validators. */
export function documentRules(path?: string): OperationRules[] {
  const document = loadOpenApiDocument(path);
  return operationRules(documentOperations(document), generatedValidators, document['security'] as Security);
}

/** The operations of the document as the front reads them: `$ref`s of schemas kept, for the validators' names. */
export function documentOperations(document: OpenApiDocument): DocumentOperation[] {
  return [...operations(document)].map((operation) => ({
    operationId: operation.operationId,
    method: operation.method,
    path: operation.path,
    security: operation.operation['security'] as Security,
    parameters: operation.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      schemaRef: refOf(p.parameter.schema),
      type: typeOf(p.schema?.schema),
    })),
    requestBody: operation.requestBody && {
      required: operation.requestBody.required,
      content: Object.fromEntries(
        Object.entries(operation.requestBody.content).map(([mediaType, media]) => [
          mediaType,
          refOf(media.media.schema),
        ]),
      ),
    },
  }));
}

function refOf(schema: JsonSchema | undefined): string | undefined {
  return typeof schema === 'object' && typeof schema['$ref'] === 'string' ? schema['$ref'] : undefined;
}

function typeOf(schema: JsonSchema | undefined): string | undefined {
  return typeof schema === 'object' && typeof schema['type'] === 'string' ? schema['type'] : undefined;
}
