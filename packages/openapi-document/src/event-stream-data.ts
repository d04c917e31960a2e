/**
 * The `data` of each complete event of a `text/event-stream` body held whole (a documented
 * example, or a body Prism served in one piece). Not a streaming parser: `@browser-cloud/sse`
 * is that. An unterminated last block is no event and is dropped, as the standard says.
 */
export function eventStreamData(text: string): string[] {
  return text
    .split(/\r\n\r\n|\n\n|\r\r/)
    .slice(0, -1)
    .map((block) =>
      block
        .split(/\r\n|\n|\r/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '');
}
