import { reportMediaTypesWithoutExamples } from './media-type-examples.js';

/** Every request body has at least one example, so the reference page shows a working call. */
export default function requestBodyExamples() {
  return {
    RequestBody: {
      enter(requestBody, ctx) {
        reportMediaTypesWithoutExamples(requestBody.content, ctx, 'Request body');
      },
    },
  };
}
