// The repository's document with profiles' create (409 on a taken name), paged list, read and
// delete added, in memory, as an API team would add them: what the tests of "a resource added to
// the document alone" (the sandbox, and read-back through the client, the CLI and MCP) run on.
// The new operations borrow the rename's tags, security, path parameter and failures, and its
// answer, `Profile`, whose `name` is `x-unique`.
import { loadOpenApiDocument, type OpenApiDocument, resources } from '@browser-cloud/openapi-document';

/** The failures (4xx, 5xx) `operation` documents, without its 409 unless `keep` names it. */
export function failuresOf(operation: { responses: Record<string, unknown> }, ...keep: string[]) {
  return Object.fromEntries(
    Object.entries(operation.responses).filter(
      ([status]) => /^[45]/.test(status) && (status !== '409' || keep.includes(status)),
    ),
  );
}

/** How a list answers: the array of items, or an object holding it beside `has_more` and `total`. */
export type ListShape = 'array' | 'envelope';

/**
 * A copy of the repository's document with `POST /profiles`, `GET /profiles` (`limit`, `offset`),
 * and `GET`, `DELETE /profiles/{id_or_name}`; the list answers as `shape` says.
 */
export function withProfilesCrud(shape: ListShape = 'array'): OpenApiDocument {
  const document = structuredClone(loadOpenApiDocument());
  const paths = document.paths as Record<string, Record<string, any>>;
  const rename = paths['/profiles/{id_or_name}']!['patch'];
  const failures = (...keep: string[]) => failuresOf(rename, ...keep);
  const common = { tags: rename.tags, security: rename.security };
  const idOrName = rename.parameters[0];
  const items = { type: 'array', items: { $ref: '#/components/schemas/Profile' } };
  const envelope = {
    type: 'object',
    additionalProperties: false,
    required: ['data', 'has_more'],
    properties: { data: items, has_more: { type: 'boolean' }, total: { type: 'integer', minimum: 0 } },
  };
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
          content: { 'application/json': { schema: shape === 'array' ? items : envelope } },
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

/**
 * The resource these operations make, as the resource model reads it, and what a read-back needs
 * of it: its operations by action, its paging parameters, the item path's parameter
 * (`id_or_name`), and the items of a list's answer (the array, or the array property holding it).
 */
export function profilesResource(document: OpenApiDocument) {
  const resource = resources(document).resources.find((r) => r.crud.create && r.crud.list && r.crud.delete)!;
  const crud = resource.crud as Required<typeof resource.crud>;
  const list = resource.list!;
  return {
    resource,
    crud,
    paging: list.paging,
    itemParameter: crud.read.parameters.find((p) => p.in === 'path')!.name,
    itemsOf: (answer: unknown) =>
      (list.itemsProperty === undefined ? answer : (answer as Record<string, unknown>)[list.itemsProperty]) as Record<
        string,
        unknown
      >[],
  };
}
