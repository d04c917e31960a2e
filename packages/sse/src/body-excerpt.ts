/**
 * Reads at most `maxBytes` of a body and cancels the rest, for error messages:
 * bounded in memory even if the server streams forever. A character cut at the
 * limit is dropped rather than shown as U+FFFD.
 */
export async function readBodyExcerpt(body: ReadableStream<Uint8Array> | null, maxBytes = 512): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let remaining = maxBytes;
  try {
    while (remaining > 0) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      const part = value.length > remaining ? value.subarray(0, remaining) : value;
      remaining -= part.length;
      text += decoder.decode(part, { stream: true });
    }
    return text;
  } catch {
    return text;
  } finally {
    reader.cancel().catch(() => {});
  }
}
