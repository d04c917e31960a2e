// The repository's document with profiles' create (409 on a taken name), paged list, read and
// delete added, in memory, as an API team would add them: what the tests of "a resource added to
// the document alone" (the sandbox, and read-back through the client, the CLI and MCP) run on.
// The new operations borrow the rename's tags, security, path parameter and failures, and its
// answer, `Profile`, whose `name` is `x-unique`.
import { loadOpenApiDocument, type OpenApiDocument } from '@browser-cloud/openapi-document';

/** The failures (4xx, 5xx) `operation` documents, without its 409 unless `keep` names it. */
export function failuresOf(operation: { responses: Record<string, unknown> }, ...keep: string[]) {
  return Object.fromEntries(
    Object.entries(operation.responses).filter(
      ([status]) => /^[45]/.test(status) && (status !== '409' || keep.includes(status)),
    ),
  );
}

/** A copy of the repository's document with `POST /profiles`, `GET /profiles` (`limit`, `offset`), and `GET`, `DELETE /profiles/{id_or_name}`. */
export function withProfilesCrud(): OpenApiDocument {
  const document = structuredClone(loadOpenApiDocument());
  const paths = document.paths as Record<string, Record<string, any>>;
  const rename = paths['/profiles/{id_or_name}']!['patch'];
  const failures = (...keep: string[]) => failuresOf(rename, ...keep);
  const common = { tags: rename.tags, security: rename.security };
  const idOrName = rename.parameters[0];
  paths['/profiles'] = {
    post: {
      ...common,
      operationId: 'createProfile',
      summary: 'Create a profile',
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateProfileRequest' } } },
      },
      responses: { '201': { ...rename.responses['200'], description: 'Created.' }, ...failures('409') },
    },
    get: {
      ...common,
      operationId: 'listProfiles',
      summary: 'List profiles',
      parameters: [
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
      ],
      responses: {
        '200': {
          description: 'The profiles.',
          content: {
            'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Profile' } } },
          },
        },
        ...failures(),
      },
    },
  };
  paths['/profiles/{id_or_name}']!['get'] = {
    ...common,
    operationId: 'getProfile',
    summary: 'Get a profile',
    parameters: [idOrName],
    responses: { '200': rename.responses['200'], ...failures() },
  };
  paths['/profiles/{id_or_name}']!['delete'] = {
    ...common,
    operationId: 'deleteProfile',
    summary: 'Delete a profile',
    parameters: [idOrName],
    responses: { '204': { description: 'Deleted.' }, ...failures() },
  };
  const schemas = document.components!.schemas!;
  schemas['CreateProfileRequest'] = structuredClone(schemas['RenameProfileRequest']!);
  return document;
}
