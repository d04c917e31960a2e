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
const BOM = 0xfeff;
const STREAM: TextDecodeOptions = { stream: true };
/** Chunks at least this large are checked for being all ASCII. */
const ASCII_CHECK_BYTES = 1024;

/**
 * Bytes to lines, the first half of the WHATWG "Parsing an event stream": decoded as UTF-8 with
 * one leading BOM stripped, cut at CR, LF or CRLF (see the README's spec notes).
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 *
 * Each chunk is decoded once, as a whole (no `subarray` per line or per chunk), and its text split
 * with `indexOf`; the unfinished last line is kept as text and joined to its end when that arrives.
 */
export class LineDecoder {
  readonly #sink: LineSink;
  /**
   * One-shot decoding, Node's fast (simdutf) path, used while no character spans two chunks: then
   * it gives what a streaming decoder would. `ignoreBOM`: a BOM is stripped once per stream, here.
   */
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** For a chunk that may split a character, and the one after: it keeps a split character's bytes. */
  readonly #streamDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The last chunk did not end on an ASCII byte, so the stream decoder may hold part of a character. */
  #splitCharacter = false;
  readonly #maxLineBytes: number;
  /** Lines of at most this many UTF-16 units are within the limit without counting (<= 3 bytes per unit). */
  readonly #maxUncountedUnits: number;
  #bomChecked = false;
  /** The previous text ended with CR: a leading LF in the next one completes that CRLF. */
  #skipLeadingLf = false;
  /** The text of the unfinished last line. */
  #rest = '';
  /** `#rest` is known to be ASCII. */
  #restAscii = true;
  /** Exact UTF-8 size of `#rest`, or -1 while it is too short to need counting. */
  #restBytes = -1;

  constructor(sink: LineSink, options: LineDecoderOptions = {}) {
    this.#sink = sink;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#maxUncountedUnits = Math.floor(this.#maxLineBytes / 3);
  }

  /** Feeds the next chunk of the body. Throws `SseError` `line-too-long`. */
  push(chunk: Uint8Array): void {
    const length = chunk.length;
    if (length === 0) return;
    // A chunk that ends on an ASCII byte ends on a character boundary.
    const boundary = chunk[length - 1]! < 0x80;
    let text: string;
    let ascii = false;
    if (boundary && !this.#splitCharacter) {
      text = this.#decoder.decode(chunk);
      // One unit per byte and no U+FFFD means the bytes were all ASCII: a line's UTF-8 size is
      // then its length, and long lines need no counting. Small chunks are not checked: per
      // chunk the check costs more than counting what rarely needs it (a line or an event
      // data over a third of its limit) saves.
      ascii = length >= ASCII_CHECK_BYTES && text.length === length && text.indexOf('\uFFFD') === -1;
    } else {
      text = this.#streamDecoder.decode(chunk, STREAM);
    }
    // After an ASCII byte the stream decoder holds nothing.
    this.#splitCharacter = !boundary;
    // Empty when the chunk held only the start of a character.
    if (text.length !== 0) this.#pushText(text, ascii);
  }

  /** Ends the stream; the unterminated last line, if any, is discarded. */
  end(): void {
    this.#rest = '';
    this.#restBytes = -1;
    // A call without input resets the stream decoder, dropping the bytes of a split character.
    if (this.#splitCharacter) this.#streamDecoder.decode();
    this.#splitCharacter = false;
  }

  /** Splits the next decoded text into lines; its last part, up to the end, is the unfinished line. */
  #pushText(text: string, ascii: boolean): void {
    let pos = 0;
    if (!this.#bomChecked) {
      this.#bomChecked = true;
      if (text.charCodeAt(0) === BOM) pos = 1;
    }
    if (this.#skipLeadingLf) {
      this.#skipLeadingLf = false;
      if (text.charCodeAt(pos) === LF) pos++;
    }
    const length = text.length;
    let lf = text.indexOf('\n', pos);
    let cr = text.indexOf('\r', pos);
    for (;;) {
      if (cr === -1) {
        // Hot path: only LF terminators left in this text.
        while (lf !== -1) {
          this.#line(text, pos, lf, ascii);
          pos = lf + 1;
          lf = text.indexOf('\n', pos);
        }
        break;
      }
      const eol = lf !== -1 && lf < cr ? lf : cr;
      this.#line(text, pos, eol, ascii);
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
    if (pos < length) this.#extendRest(text, pos, length, ascii);
  }

  /** Hands out the line ending at `end`; it continues the unfinished line, if there is one. */
  #line(text: string, start: number, end: number, ascii: boolean): void {
    if (this.#rest.length !== 0) {
      this.#extendRest(text, start, end, ascii);
      const line = this.#rest;
      const lineAscii = this.#restAscii;
      this.#rest = '';
      this.#restBytes = -1;
      this.#sink.line(line, 0, line.length, lineAscii);
      return;
    }
    if (end - start > this.#maxUncountedUnits) this.#checkSize(ascii ? end - start : utf8ByteLength(text, start, end));
    this.#sink.line(text, start, end, ascii);
  }

  /**
   * Appends `text.slice(start, end)` to the unfinished line, failing as soon as that is too long.
   * Appending strings makes a rope, read in one pass when the line is done: linear however many
   * chunks a long line takes. It is counted in one pass too, then piece by piece.
   */
  #extendRest(text: string, start: number, end: number, ascii: boolean): void {
    const piece = text.slice(start, end);
    this.#restAscii = (this.#rest.length === 0 || this.#restAscii) && ascii;
    this.#rest += piece;
    if (this.#rest.length <= this.#maxUncountedUnits) return;
    if (this.#restBytes < 0) {
      this.#restBytes = this.#restAscii ? this.#rest.length : utf8ByteLength(this.#rest);
    } else {
      this.#restBytes += ascii ? piece.length : utf8ByteLength(piece);
    }
    this.#checkSize(this.#restBytes);
  }

  #checkSize(size: number): void {
    const limit = this.#maxLineBytes;
    if (size > limit)
      throw new SseError('line-too-long', `Line exceeds maxLineBytes (${limit} bytes)`, { limit, size });
  }
}
