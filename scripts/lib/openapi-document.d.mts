export const OPENAPI_PATH: string;
