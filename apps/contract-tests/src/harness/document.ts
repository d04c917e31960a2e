// The document and its validator, read at run time from openapi/openapi.yaml (never a copy).
export { createDocumentValidator, eventStreamData } from '../../../../scripts/lib/document-validator.mjs';
export { loadOpenApiDocument } from '../../../../scripts/lib/openapi-document.mjs';
