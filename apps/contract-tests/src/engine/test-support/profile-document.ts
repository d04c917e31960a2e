// The repository's document with operations an API team adds to it (as the service's official SDK
// has them): a read and a delete of a profile, and a create besides. What the engine's tests plan on.
import { loadOpenApiDocument, type OpenApiDocument } from '@browser-cloud/openapi-document';

const PROFILE_PATH = '/profiles/{id_or_name}';

/** The repository's document with `GET` and `DELETE` of a profile, and `POST /profiles` only when `create`. */
export function documentWithProfileOperations(create = false): OpenApiDocument {
  const document = structuredClone(loadOpenApiDocument()) as Record<string, any>;
  const item = document.paths[PROFILE_PATH];
  const { responses } = item.patch;
  // The rename's path parameters, not its query parameters (a release may give it some).
  const parameters = item.patch.parameters.filter((p: { in: string }) => p.in === 'path');
  const errors = Object.fromEntries(
    Object.entries(responses).filter(([status]) => status >= '400' && status !== '409'),
  );
  item.get = { operationId: 'getProfile', parameters, responses: { '200': responses['200'], ...errors } };
  item.delete = {
    operationId: 'deleteProfile',
    parameters,
    responses: { '204': { description: 'Deleted.' }, ...errors },
  };
  // Without `create`, no POST on the collection, whatever the document has: the delete then has
  // nothing that makes what it removes.
  document.paths['/profiles'] ??= {};
  const collection = document.paths['/profiles'];
  delete collection.post;
  if (create) {
    collection.post = {
      operationId: 'createProfile',
      requestBody: item.patch.requestBody,
      responses: { '201': responses['200'], ...errors },
    };
  }
  return document as OpenApiDocument;
}
