/**
 * The mock of the Browser Cloud API: Prism serving the OpenAPI document's examples, behind a
 * validating front that refuses (400/401, Error body) what the document forbids.
 */
export { startMock } from './start-mock.js';
export type { MockServer, StartMockOptions } from './start-mock.js';
export { locatePrism, startPrism } from './prism.js';
export type { PrismProcess, StartPrismOptions } from './prism.js';
export { startValidatingFront, DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_TIMEOUT_MS } from './validating-front.js';
export type { ValidatingFront, ValidatingFrontOptions } from './validating-front.js';
export { freePort } from './free-port.js';
export { MockStartError } from './mock-start-error.js';
