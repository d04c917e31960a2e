import { SseError } from './errors.js';
import { utf8ByteLength } from './utf8-byte-length.js';

/** Receives each line as `text.slice(start, end)`, terminator excluded: a range spares a string per line. */
export interface LineSink {
  /** `ascii`: the line is known to be pure ASCII, so its UTF-8 size is `end - start`. */
  line(text: string, start: number, end: number, ascii: boolean): void;
}

export interface LineDecoderOptions {
  /** Longest line in UTF-8 bytes, terminator excluded, checked while it arrives. @defaultValue 4 MiB */
  maxLineBytes?: number | undefined;
}

/** 4 MiB: four times the 1 MiB log lines the service may send. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const LF = 10;
const CR = 13;
const BOM = 0xfeff;
/** A held line this long is probably long for a while: switch to {@link lastLineEndInLongLine}. */
const LONG_LINE_BYTES = 4096;
/** A held-back buffer larger than this (grown by a long line) is released once its line is done. */
const KEEP_BUFFER_BYTES = 256 * 1024;

/**
 * Bytes to lines, the first half of the WHATWG "Parsing an event stream" (see the README's spec notes).
 * Each chunk is cut after its last CR or LF byte: the part before is decoded in one call, the rest
 * held as bytes. CR and LF are ASCII, so the cut never splits a character and the text is what a
 * `{ stream: true }` decoder would give, without leaving Node's fast (simdutf) decoding path.
 */
export class LineDecoder {
  readonly #sink: LineSink;
  // ignoreBOM: a non-streaming decoder would strip a BOM from every call; the rule is one per stream.
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  readonly #maxLineBytes: number;
  /** Lines of at most this many UTF-16 units are within the limit without counting (<= 3 bytes per unit). */
  readonly #maxUncountedUnits: number;
  #bomChecked = false;
  /** The previous text ended with CR: a leading LF in the next one completes that CRLF. */
  #skipLeadingLf = false;
  /** The bytes of the unfinished last line. */
  #held = new Uint8Array(256);
  #heldLength = 0;

  constructor(sink: LineSink, options: LineDecoderOptions = {}) {
    this.#sink = sink;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#maxUncountedUnits = Math.floor(this.#maxLineBytes / 3);
  }

  /** Feeds the next chunk of the body. Throws `SseError` `line-too-long`. */
  push(chunk: Uint8Array): void {
    const last = this.#heldLength >= LONG_LINE_BYTES ? lastLineEndInLongLine(chunk, this.#decoder) : lastLineEnd(chunk);
    if (last >= 0) {
      const done = chunk.subarray(0, last + 1);
      if (this.#heldLength === 0) {
        this.#pushText(this.#decoder.decode(done), last + 1);
      } else {
        this.#hold(done);
        const byteLength = this.#heldLength;
        this.#heldLength = 0;
        const text = this.#decoder.decode(this.#held.subarray(0, byteLength));
        if (this.#held.length > KEEP_BUFFER_BYTES) this.#held = new Uint8Array(256);
        this.#pushText(text, byteLength);
      }
    }
    this.#holdUnfinished(chunk.subarray(last + 1));
  }

  /** Ends the stream; the unterminated last line, if any, is discarded. */
  end(): void {
    this.#heldLength = 0;
  }

  /** Splits decoded text that ends with a line terminator into lines; `byteLength` is what it was decoded from. */
  #pushText(text: string, byteLength: number): void {
    const length = text.length;
    // One unit per byte and no U+FFFD means the bytes were all ASCII: a line's
    // UTF-8 size is then its length, and long lines need no counting.
    const ascii = length === byteLength && text.indexOf('\uFFFD') === -1;
    let pos = 0;
    if (!this.#bomChecked) {
      this.#bomChecked = true;
      if (text.charCodeAt(0) === BOM) pos = 1;
    }
    if (this.#skipLeadingLf) {
      this.#skipLeadingLf = false;
      if (text.charCodeAt(pos) === LF) pos++;
    }
    const sink = this.#sink;
    const maxUnits = this.#maxUncountedUnits;
    let lf = text.indexOf('\n', pos);
    let cr = text.indexOf('\r', pos);
    for (;;) {
      if (cr === -1) {
        // Hot path: only LF terminators left in this text.
        while (lf !== -1) {
          if (lf - pos > maxUnits) this.#checkLine(text, pos, lf, ascii);
          sink.line(text, pos, lf, ascii);
          pos = lf + 1;
          lf = text.indexOf('\n', pos);
        }
        return;
      }
      const eol = lf !== -1 && lf < cr ? lf : cr;
      if (eol - pos > maxUnits) this.#checkLine(text, pos, eol, ascii);
      sink.line(text, pos, eol, ascii);
      pos = eol + 1;
      if (eol === cr) {
        if (pos === length) {
          // The LF of a CRLF may be the first byte of the next chunk.
          this.#skipLeadingLf = true;
          return;
        }
        if (lf === pos) pos++;
      }
      // Each found position is reused until passed, so stray CRs far from any LF stay linear.
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr < pos) cr = text.indexOf('\r', pos);
    }
  }

  /** Holds bytes of a line whose end has not arrived, failing as soon as it is too long. */
  #holdUnfinished(bytes: Uint8Array): void {
    // Held bytes are a lower bound of the line's UTF-8 size (an invalid byte
    // decodes to a 3-byte U+FFFD), less the 3 bytes of a BOM not yet stripped.
    this.#checkSize(this.#heldLength + bytes.length - (this.#bomChecked ? 0 : 3));
    this.#hold(bytes);
  }

  #hold(bytes: Uint8Array): void {
    const at = this.#heldLength;
    const needed = at + bytes.length;
    if (needed > this.#held.length) {
      const grown = new Uint8Array(Math.max(needed, this.#held.length * 2));
      grown.set(this.#held.subarray(0, at));
      this.#held = grown;
    }
    this.#held.set(bytes, at);
    this.#heldLength = needed;
  }

  /** A line long enough in UTF-16 units to be over the limit: count its bytes (`ascii`: one per unit). */
  #checkLine(text: string, start: number, end: number, ascii: boolean): void {
    this.#checkSize(ascii ? end - start : utf8ByteLength(text, start, end));
  }

  #checkSize(size: number): void {
    const limit = this.#maxLineBytes;
    if (size > limit)
      throw new SseError('line-too-long', `Line exceeds maxLineBytes (${limit} bytes)`, { limit, size });
  }
}

/** Index of the last CR or LF byte, or -1. Usually a few bytes from the end of a chunk. */
function lastLineEnd(chunk: Uint8Array): number {
  let i = chunk.length - 1;
  // Eight bytes per step while none is a control character: one compare each.
  for (; i >= 7; i -= 8) {
    if (
      chunk[i]! <= CR ||
      chunk[i - 1]! <= CR ||
      chunk[i - 2]! <= CR ||
      chunk[i - 3]! <= CR ||
      chunk[i - 4]! <= CR ||
      chunk[i - 5]! <= CR ||
      chunk[i - 6]! <= CR ||
      chunk[i - 7]! <= CR
    ) {
      break;
    }
  }
  for (; i >= 0; i--) {
    const byte = chunk[i]!;
    if (byte <= CR && (byte === LF || byte === CR)) return i;
  }
  return -1;
}

/**
 * {@link lastLineEnd} for chunks inside a long line, where most have no line end and every byte
 * must be looked at: decoding (native) and letting `indexOf` search is several times faster than
 * a byte loop. CR and LF come out of the decoder as themselves, even next to invalid bytes.
 */
function lastLineEndInLongLine(chunk: Uint8Array, decoder: TextDecoder): number {
  const text = decoder.decode(chunk);
  if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) return -1;
  // One unit per byte: positions in the text are positions in the chunk.
  if (text.length === chunk.length) return Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return lastLineEnd(chunk);
}
