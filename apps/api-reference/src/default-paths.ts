import { fileURLToPath } from 'node:url';

// Both src/ and dist/ sit one level below the workspace, so the same relative URLs hold for the
// TypeScript sources (tests) and the compiled CLI.
const workspaceDir = new URL('../', import.meta.url);

/** The project's OpenAPI document, `openapi/openapi.yaml` at the repository root. */
export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', workspaceDir));

/** Where `npm run docs` writes the page: `apps/api-reference/dist/index.html`. */
export const DEFAULT_OUT_FILE = fileURLToPath(new URL('dist/index.html', workspaceDir));
