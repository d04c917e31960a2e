// Kept only for scripts/lib/prism.mjs, which is moving into apps/mock: there it takes
// OPENAPI_PATH from @browser-cloud/openapi-document, and this file goes away.
import { fileURLToPath } from 'node:url';

export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));
