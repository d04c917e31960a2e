const NON_ASCII = /[^\x00-\x7f]/;

/**
 * UTF-8 length of `text.slice(start, end)` without encoding it.
 *
 * Limits are specified in bytes because that is what crosses the wire and what
 * servers document, while the parser works on decoded UTF-16 text. Unpaired
 * surrogates count as the 3 bytes of the U+FFFD an encoder would write. Only
 * called for multi-megabyte lines, so it skips the ASCII prefix with a regular
 * expression (native, several times faster than a charCodeAt loop).
 */
export function utf8ByteLength(text: string, start = 0, end = text.length): number {
  const range = start === 0 && end === text.length ? text : text.slice(start, end);
  const length = range.length;
  let bytes = length;
  const first = range.search(NON_ASCII);
  if (first === -1) return bytes;
  // One byte per unit counted already; add one from U+0080 and two from U+0800 (surrogates
  // included: a lone one is the 3-byte U+FFFD, a pair's two units are 4 bytes).
  for (let i = first; i < length; i++) {
    const unit = range.charCodeAt(i);
    if (unit < 0x80) continue;
    bytes += unit < 0x800 ? 1 : 2;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = range.charCodeAt(i + 1);
      // The low half of a pair adds nothing more.
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return bytes;
}
