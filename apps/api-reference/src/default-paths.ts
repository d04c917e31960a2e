import { fileURLToPath } from 'node:url';
import { OPENAPI_PATH } from '@browser-cloud/openapi-document';

// Both src/ and dist/ sit one level below the workspace, so the same relative URL holds for the
// TypeScript sources (tests) and the compiled CLI.
const workspaceDir = new URL('../', import.meta.url);

/** The project's OpenAPI document, `openapi/openapi.yaml` at the repository root. */
export const DEFAULT_SPEC_PATH = OPENAPI_PATH;

/** Where `npm run docs` writes the page: `apps/api-reference/dist/index.html`. */
export const DEFAULT_OUT_FILE = fileURLToPath(new URL('dist/index.html', workspaceDir));
