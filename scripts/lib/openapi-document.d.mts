export const OPENAPI_PATH: string;
export function loadOpenApiDocument(path?: string): any;
