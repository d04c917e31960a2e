/**
 * The mock of the Browser Cloud API: Prism serving the OpenAPI document's examples, behind a
 * validating front that refuses (400/401, Error body) what the document forbids.
 */
export { type MockServer, type StartMockOptions, startMock } from './start-mock.js';
export { locatePrism, type PrismProcess, type StartPrismOptions, startPrism } from './prism.js';
export { startValidatingFront, type ValidatingFront, type ValidatingFrontOptions } from './validating-front.js';
export { MockStartError } from './mock-start-error.js';
