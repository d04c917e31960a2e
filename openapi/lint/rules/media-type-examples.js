/** Reports each media type of `content` that has neither `example` nor a non-empty `examples`. */
export function reportMediaTypesWithoutExamples(content, ctx, what) {
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    const hasExamples = media.example !== undefined || Object.keys(media.examples ?? {}).length > 0;
    if (!hasExamples) {
      ctx.report({
        message: `${what} (${mediaType}) must have an example.`,
        location: ctx.location.child(['content', mediaType]),
      });
    }
  }
}
