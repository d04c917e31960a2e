/**
 * UTF-8 length of `text.slice(start, end)` without encoding it.
 *
 * Limits are specified in bytes because that is what crosses the wire and what
 * servers document, while the parser works on decoded UTF-16 text. Unpaired
 * surrogates count as the 3 bytes of the U+FFFD an encoder would write.
 */
export function utf8ByteLength(text: string, start = 0, end = text.length): number {
  let bytes = end - start;
  for (let i = start; i < end; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // Two units, four bytes.
        bytes += 2;
        i++;
      } else {
        bytes += 2;
      }
    } else {
      bytes += 2;
    }
  }
  return bytes;
}
