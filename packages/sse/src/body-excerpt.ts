/** What {@link readBoundedBody} got from a body. */
export interface BoundedBody {
  /** The bytes read, decoded as UTF-8; a character cut at the limit is dropped rather than shown as U+FFFD. */
  readonly text: string;
  /** How many bytes were read: at most the limit. */
  readonly bytes: number;
  /** True when the body held more than the limit: the rest was cancelled unread. */
  readonly truncated: boolean;
  /** True when reading failed part-way (a reset, an abort): `text` is what came before. */
  readonly failed: boolean;
}

/**
 * Reads at most `maxBytes` of a body and cancels the rest, so a server streaming forever costs no
 * memory. A body that breaks off gives what came before, marked `failed`, or with `rethrow` its failure.
 */
export async function readBoundedBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  rethrow = false,
): Promise<BoundedBody> {
  if (body === null) return { text: '', bytes: 0, truncated: false, failed: false };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), bytes, truncated: false, failed: false };
      const room = maxBytes - bytes;
      const part = value.length > room ? value.subarray(0, room) : value;
      bytes += part.length;
      text += decoder.decode(part, { stream: true });
      if (part !== value) return { text, bytes, truncated: true, failed: false };
    }
  } catch (error) {
    if (rethrow) throw error;
    return { text, bytes, truncated: false, failed: true };
  } finally {
    reader.cancel().catch(() => {});
  }
}
