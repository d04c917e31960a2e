/** The one checker of requests against the OpenAPI document, and the Fastify that refuses as it does. */
export {
  ApiError,
  badRequest,
  conflict,
  errorBody,
  forbidden,
  newRequestId,
  notFound,
  projectsDisabled,
  unauthorized,
} from './api-error.js';
export {
  type CheckingFastifyOptions,
  checkingFastify,
  checkRequest,
  operationOf,
  operationRoute,
  routeRequest,
} from './checking-fastify.js';
export { responseCheck } from './error-handler.js';
export {
  type CheckedRequest,
  clip,
  createRequestChecker,
  invalidPart,
  isRefusal,
  MAX_JSON_DEPTH,
  parseJson,
  type Refusal,
  type RequestChecker,
  type RequestParts,
  type RouteMatch,
} from './request-checker.js';
