import type { FlowType } from '@browser-cloud/api-types';
import { getAt, loadOpenApiDocument, OPENAPI_PATH, type OpenApiDocument } from '@browser-cloud/openapi-document';

/** The repository's document, read where it is (a copy could drift), or the one `SANDBOX_OPENAPI_PATH` names. */
export function loadSandboxDocument(): OpenApiDocument {
  return loadOpenApiDocument(process.env['SANDBOX_OPENAPI_PATH'] ?? OPENAPI_PATH);
}

/**
 * The two kinds of login flow the sandbox starts, by their values in the document: a login the
 * user completes at `hosted_url`, and the re-authentication stored credentials trigger.
 */
export type FlowTypes = { readonly login: FlowType; readonly reauth: FlowType };

/** The answer of a login flow's start, and the data of a log stream's events: what the seed's rules serve. */
export const LOGIN_RESPONSE = '#/components/schemas/LoginResponse';
export const LOG_EVENT = '#/components/schemas/LogEvent';

const FLOW_TYPE_ENUM = `${LOGIN_RESPONSE}/properties/flow_type/enum`;

/**
 * The flow types in the document's order: the login, then the re-authentication; a value listed
 * after them is a kind of flow the sandbox never starts.
 * @throws Error naming the pointer when the document does not list at least two strings.
 */
export function flowTypesOf(document: OpenApiDocument): FlowTypes {
  const values = getAt(document, FLOW_TYPE_ENUM);
  if (!Array.isArray(values) || values.length < 2 || !values.every((v) => typeof v === 'string')) {
    throw new Error(
      `${FLOW_TYPE_ENUM} must list the login flow type then the re-authentication one; the sandbox read ${JSON.stringify(values)}`,
    );
  }
  return { login: values[0] as FlowType, reauth: values[1] as FlowType };
}
