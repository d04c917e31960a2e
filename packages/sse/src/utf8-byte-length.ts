const encoder = new TextEncoder();
const scratch = new Uint8Array(64 * 1024);

/**
 * UTF-8 length of `text.slice(start, end)` (a lone surrogate counts as its U+FFFD), encoded a piece
 * at a time into a fixed buffer, so that a multi-megabyte line costs no copy of its size.
 */
export function utf8ByteLength(text: string, start = 0, end = text.length): number {
  let rest = text.slice(start, end);
  let bytes = 0;
  while (rest.length !== 0) {
    const { read, written } = encoder.encodeInto(rest, scratch);
    bytes += written;
    rest = rest.slice(read);
  }
  return bytes;
}
