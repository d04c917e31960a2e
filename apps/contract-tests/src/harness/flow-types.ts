import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { flowTypesOf } from '@browser-cloud/sandbox';

/** The document's flow types: `login` for a fresh login, `reauth` when stored credentials trigger one. */
export const FLOW = flowTypesOf(loadOpenApiDocument());
