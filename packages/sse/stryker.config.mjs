import { mutationConfig } from '@browser-cloud/tooling/stryker-base';

// Last full run 2026-11-25: 89.93 % of 1390 mutants, floor 85; the code was slimmed since, without a
// run, and the list follows its lines. The equivalent mutants (see the tooling's stryker-base), as `file:line
// mutators in code: why`; some differ only in speed or memory, which `npm run bench` holds to its targets.
export const equivalentMutants = [
  "src/json-events.ts:68 ConditionalExpression in `if (typeof type === 'string' && heartbeats?.has(type)) return undefined;`: the true variant is equivalent (a set of strings has no non-string); the false one is killed but shares this switch",
  'src/json-events.ts:127 BooleanLiteral in `finished = true;`: equivalent, an async iterator that is done stays done',
  "src/event-parser.ts:52 StringLiteral in `#data = '';`: equivalent, the first data line overwrites it (#dataLines is 0)",
  'src/event-parser.ts:121 UpdateOperator in `this.#dataLines++ === 0`: equivalent, only zero or not is read, and the one-line ASCII shortcut counts the same bytes',
  'src/event-parser.ts:123 ConditionalExpression,EqualityOperator in `if (this.#data.length <= this.#maxUncountedUnits) return;`: equivalent when it counts more often (false, <), only slower',
  'src/event-parser.ts:124 ConditionalExpression,EqualityOperator in `if (this.#dataBytes < 0) {`: equivalent when it recounts the whole data (true, <= 0): the same size, slower; performance: recounting the whole data on every line is quadratic; npm run bench (linear time, "one 4 MiB event of 65,536 data lines") shows it',
  "src/event-parser.ts:125 ConditionalExpression in `this.#dataBytes = ascii && this.#dataLines === 1 ? value.length : utf8ByteLength(this.#data);`: equivalent when false, utf8ByteLength gives an ASCII line's length",
  "src/event-parser.ts:154 StringLiteral in `this.#data = '';`: equivalent, the next data line overwrites it (#dataLines is 0)",
  'src/line-decoder.ts:24 ArithmeticOperator in `const KEEP_BUFFER_BYTES = 256 * 1024;`: equivalent, only decides when memory is given back',
  'src/line-decoder.ts:54 ConditionalExpression,EqualityOperator in `this.#heldLength >= LONG_LINE_BYTES ? lastLineEndInLongLine(chunk, this.#decoder) : lastLineEnd(chunk);`: equivalent, both finders return the same index',
  'src/line-decoder.ts:64 ConditionalExpression,EqualityOperator in `if (this.#held.length > KEEP_BUFFER_BYTES) this.#held = new Uint8Array(256);`: equivalent, only decides when memory is given back',
  "src/line-decoder.ts:81 StringLiteral in `const ascii = length === byteLength && text.indexOf('\\uFFFD') === -1;`: equivalent, indexOf('') is 0, so lines are just counted exactly",
  'src/line-decoder.ts:99 ConditionalExpression,EqualityOperator,ArithmeticOperator in `if (lf - pos > maxUnits) this.#checkLine(text, pos, lf, ascii);`: equivalent, checking shorter lines too only costs time',
  'src/line-decoder.ts:106 EqualityOperator in `const eol = lf !== -1 && lf < cr ? lf : cr;`: equivalent, an LF and a CR are never at the same index',
  'src/line-decoder.ts:107 ConditionalExpression,EqualityOperator,ArithmeticOperator in `if (eol - pos > maxUnits) this.#checkLine(text, pos, eol, ascii);`: equivalent, checking shorter lines too only costs time',
  'src/line-decoder.ts:110 ConditionalExpression in `if (eol === cr) {`: equivalent, an LF here has a CR after it, so it never ends the text or precedes an LF at pos',
  "src/line-decoder.ts:119 ConditionalExpression,LogicalOperator,EqualityOperator in `if (lf !== -1 && lf < pos) lf = text.indexOf('\\n', pos);`: equivalent, searching again from pos finds the same index",
  "src/line-decoder.ts:120 ConditionalExpression,EqualityOperator in `if (cr < pos) cr = text.indexOf('\\r', pos);`: equivalent, searching again from pos finds the same index",
  'src/line-decoder.ts:135 EqualityOperator in `if (needed > this.#held.length) {`: equivalent, growing a buffer that is just large enough changes nothing',
  'src/line-decoder.ts:158 ArithmeticOperator in `let i = chunk.length - 1;`: equivalent, the eight-byte steps then cover the same bytes from past the end',
  'src/line-decoder.ts:160 ConditionalExpression,EqualityOperator in `for (; i >= 7; i -= 8) {`: equivalent, the byte loop below then does the whole scan',
  'src/line-decoder.ts:162 ConditionalExpression in `chunk[i]! <= CR ||`: the true variant is equivalent (the byte loop below then finds the line end); the false one is killed but shares this switch',
  'src/line-decoder.ts:176 ConditionalExpression in `if (byte <= CR && (byte === LF || byte === CR)) return i;`: the true variant is equivalent (the exact test follows); the false one is killed but shares this switch',
  "src/line-decoder.ts:188 StringLiteral in `if (text.indexOf('\\n') === -1 && text.indexOf('\\r') === -1) return -1;`: equivalent, indexOf('') is 0 and the search below finds no line end either",
  "src/line-decoder.ts:190 ConditionalExpression in `if (text.length === chunk.length) return Math.max(text.lastIndexOf('\\n'), text.lastIndexOf('\\r'));`: equivalent, the byte scan finds the same index",
  "src/connect-event-stream.ts:312 ConditionalExpression in `cause instanceof SseError && cause.type === 'idle-timeout'`: the true variant is equivalent (the only SseError a dropped attempt can carry is the idle one); the false one is killed but shares this switch",
  "src/batched-event-iterator.ts:46 ObjectLiteral,BooleanLiteral in `abortSignal?.addEventListener('abort', onAbort, { once: true });`: equivalent, a signal aborts once and release removes the listener",
  'src/read-event-stream.ts:27 ConditionalExpression in `if (finished) return false;`: the false variant is equivalent (the read of a cancelled body ends done and the check after it returns false); the true one is killed but shares this switch',
  "src/read-event-stream.ts:34 ConditionalExpression,BooleanLiteral in `if (finished) return false;`: equivalent, a cancelled body's pending read ends done rather than failing",
  'src/read-event-stream.ts:37 ConditionalExpression in `if (finished) return false;`: the false variant is equivalent (cancelling ends the pending read done, which also returns false); the true one is killed but shares this switch',
  "src/read-event-stream.ts:48 LogicalOperator,StringLiteral in `return batchedEvents(batch, options.lastEventId ?? '', {`: equivalent, the initial ID is only read once an event was handed out, which replaces it",
  'src/read-event-stream.ts:55 ConditionalExpression in `if (finished) return;`: the false variant is equivalent (detaching twice repeats idempotent steps); the true one is killed but shares this switch',
  'src/read-event-stream.ts:60 OptionalChaining in `reader?.releaseLock();`: equivalent, without a reader the call throws inside the try that ignores it',
  'src/recent-ids.ts:12 EqualityOperator in `if (this.size === this.#capacity) this.delete(this.values().next().value!);`: equivalent, the size never exceeds the capacity',
];

export default mutationConfig({
  mutate: ['src/**/*.ts', '!src/**/*.test.ts', '!src/test-support/**', '!src/index.ts'],
  minScore: 85,
});
