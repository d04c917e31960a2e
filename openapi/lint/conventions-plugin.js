// Redocly plugin with the conventions of this API that configurable rules cannot state
// precisely (they need the status code of the enclosing response, or a look at both
// `example` and `examples`), and the check that Redocly reads the YAML as the project's
// loader does (with the preprocessor that lets it check every aliased place), and that the
// generators can write the document.
import copyAliasedObjects from './preprocessors/copy-aliased-objects.js';
import closedObjectSchemas from './rules/closed-object-schemas.js';
import errorResponsesUseErrorBody from './rules/error-responses-use-error-body.js';
import generatable from './rules/generatable.js';
import readAsLoader from './rules/read-as-loader.js';
import responseExamples from './rules/response-examples.js';
import requestBodyExamples from './rules/request-body-examples.js';

export default function conventionsPlugin() {
  return {
    id: 'conventions',
    preprocessors: {
      oas3: { 'copy-aliased-objects': copyAliasedObjects },
    },
    rules: {
      oas3: {
        'read-as-loader': readAsLoader,
        generatable,
        'closed-object-schemas': closedObjectSchemas,
        'error-responses-use-error-body': errorResponsesUseErrorBody,
        'response-examples': responseExamples,
        'request-body-examples': requestBodyExamples,
      },
    },
  };
}
