// Redocly plugin with the conventions of this API that configurable rules cannot state
// precisely (they need the status code of the enclosing response, or a look at both
// `example` and `examples`).
import errorResponsesUseErrorBody from './rules/error-responses-use-error-body.js';
import responseExamples from './rules/response-examples.js';
import requestBodyExamples from './rules/request-body-examples.js';

export default function conventionsPlugin() {
  return {
    id: 'conventions',
    rules: {
      oas3: {
        'error-responses-use-error-body': errorResponsesUseErrorBody,
        'response-examples': responseExamples,
        'request-body-examples': requestBodyExamples,
      },
    },
  };
}
