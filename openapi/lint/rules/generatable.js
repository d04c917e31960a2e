// The generators' own check of the document (the operations model's generationProblems): a name
// that is not safe or not unique where a generator writes it, a path template that does not match
// its parameters. Lint and `npm run generate` accept the same documents.
import { generationProblems, parsePointer } from '@browser-cloud/openapi-document';
import { existingPath } from './read-as-loader.js';

export default function generatable() {
  return {
    Root: {
      enter(root, ctx) {
        for (const { message, pointer } of generationProblems(root)) {
          ctx.report({
            message: `${message}: the generators cannot write this document.`,
            location: ctx.location.child(existingPath(root, parsePointer(pointer))),
          });
        }
      },
    },
  };
}
