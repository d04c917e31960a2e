/**
 * The `data` of each complete event of a `text/event-stream` body held whole (an example, a body
 * Prism served in one piece); `@browser-cloud/sse` parses streams. An unterminated last block is
 * no event, as the standard says.
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
