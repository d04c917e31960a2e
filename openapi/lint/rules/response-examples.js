import { reportMediaTypesWithoutExamples } from './media-type-examples.js';

/** Every response body has at least one example, which is what Prism serves and docs show. */
export default function responseExamples() {
  return {
    Response: {
      enter(response, ctx) {
        reportMediaTypesWithoutExamples(response.content, ctx, `Response ${ctx.key}`);
      },
    },
  };
}
