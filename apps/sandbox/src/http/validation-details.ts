import { type ErrorDetail, type ErrorObject, toIssues } from '@browser-cloud/api-types';

/** The request part a validation error is about, as Fastify names it. */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

const PART_MESSAGE: Record<RequestPart, string> = {
  body: 'the request body is invalid',
  querystring: 'the query is invalid',
  params: 'the path is invalid',
  headers: 'the request headers are invalid',
};

/** The Error `message` for a validation failure of a request part. */
export function validationMessage(part: RequestPart): string {
  return PART_MESSAGE[part];
}

/**
 * Turns Ajv's errors into `invalid_input` details that name the field (`proxy.id: …`), worded as
 * the client words them (`@browser-cloud/api-types`' toIssues). The value is read from the errors
 * (the document's Ajv is verbose).
 */
export function validationDetails(errors: readonly ErrorObject[], part: RequestPart): ErrorDetail[] {
  const root = part === 'querystring' ? 'query' : part === 'params' ? 'path' : part;
  return toIssues(errors, undefined, root, { prefixFields: false }).map(({ message }) => ({
    code: 'invalid_input',
    message,
  }));
}
