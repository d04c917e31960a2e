import { mutationConfig } from '@browser-cloud/tooling/stryker-base';

// Last full run 2026-11-25: 89.93 % of 1390 mutants, floor 85; the code was slimmed and the line
// decoder rewritten since, without a run, and the list follows its lines. The equivalent mutants (see the tooling's stryker-base), as `file:line
// mutators in code: why`; some differ only in speed or memory, which `npm run bench` holds to its targets.
export const equivalentMutants = [
  "src/json-events.ts:68 ConditionalExpression in `if (typeof type === 'string' && heartbeats?.has(type)) return undefined;`: the true variant is equivalent (a set of strings has no non-string); the false one is killed but shares this switch",
  'src/json-events.ts:127 BooleanLiteral in `finished = true;`: equivalent, an async iterator that is done stays done',
  "src/event-parser.ts:52 StringLiteral in `#data = '';`: equivalent, the first data line overwrites it (#dataLines is 0)",
  'src/event-parser.ts:124 UpdateOperator in `this.#dataLines++ === 0`: equivalent, only zero or not is read',
  'src/event-parser.ts:127 ConditionalExpression,EqualityOperator in `if (this.#data.length <= this.#maxUncountedUnits) return;`: equivalent when it counts more often (false, <), only slower',
  'src/event-parser.ts:128 ConditionalExpression,EqualityOperator in `if (this.#dataBytes < 0) {`: equivalent when it recounts the whole data (true, <= 0): the same size, slower; performance: recounting the whole data on every line is quadratic; npm run bench (linear time, "one 4 MiB event of 65,536 data lines") shows it',
  "src/event-parser.ts:129 ConditionalExpression in `this.#dataBytes = this.#dataAscii ? this.#data.length : utf8ByteLength(this.#data);`: equivalent when false, utf8ByteLength gives ASCII data's length",
  "src/event-parser.ts:158 StringLiteral in `this.#data = '';`: equivalent, the next data line overwrites it (#dataLines is 0)",
  'src/line-decoder.ts:70 ConditionalExpression in `if (boundary && !this.#splitCharacter) {`: the false variant is equivalent (the streaming decoder gives the same text, only slower, and no ASCII shortcut); the true one is killed but shares this switch',
  "src/line-decoder.ts:76 ConditionalExpression,EqualityOperator,StringLiteral in `ascii = length >= ASCII_CHECK_BYTES && text.length === length && text.indexOf('\\uFFFD') === -1;`: equivalent when it says false (indexOf('') is 0 too) or checks smaller chunks as well (true, >): long lines are then counted exactly, or the check runs more often, only slower; the variants that say true are killed but share these switches",
  'src/line-decoder.ts:91 ConditionalExpression in `if (this.#splitCharacter) this.#streamDecoder.decode();`: equivalent, resetting a decoder that holds nothing changes nothing',
  'src/line-decoder.ts:119 EqualityOperator in `const eol = lf !== -1 && lf < cr ? lf : cr;`: equivalent, an LF and a CR are never at the same index',
  'src/line-decoder.ts:122 ConditionalExpression in `if (eol === cr) {`: equivalent, an LF here has a CR after it, so it never ends the text or precedes an LF at pos',
  "src/line-decoder.ts:131 ConditionalExpression,LogicalOperator,EqualityOperator in `if (lf !== -1 && lf < pos) lf = text.indexOf('\\n', pos);`: equivalent, searching again from pos finds the same index",
  "src/line-decoder.ts:132 ConditionalExpression,EqualityOperator in `if (cr < pos) cr = text.indexOf('\\r', pos);`: equivalent, searching again from pos finds the same index",
  'src/line-decoder.ts:148 ConditionalExpression,EqualityOperator,ArithmeticOperator in `if (end - start > this.#maxUncountedUnits) this.#checkSize(ascii ? end - start : utf8ByteLength(text, start, end));`: equivalent when it counts shorter lines too (and the ascii ternary when false), only slower',
  'src/line-decoder.ts:159 ConditionalExpression,LogicalOperator,EqualityOperator in `this.#restAscii = (this.#rest.length === 0 || this.#restAscii) && ascii;`: equivalent when it says false, long lines are then counted exactly; the variants that say true are killed but share these switches',
  'src/line-decoder.ts:161 ConditionalExpression,EqualityOperator in `if (this.#rest.length <= this.#maxUncountedUnits) return;`: equivalent when it counts more often (false, <), only slower',
  'src/line-decoder.ts:162 ConditionalExpression,EqualityOperator in `if (this.#restBytes < 0) {`: equivalent when it recounts the whole line (true, <= 0): the same size, slower; performance: recounting on every chunk is quadratic; npm run bench (linear time, "one 8 MiB data line, 1460 B chunks") shows it',
  "src/line-decoder.ts:163 ConditionalExpression in `this.#restBytes = this.#restAscii ? this.#rest.length : utf8ByteLength(this.#rest);`: equivalent when false, utf8ByteLength gives an ASCII line's length",
  "src/line-decoder.ts:165 ConditionalExpression in `this.#restBytes += ascii ? piece.length : utf8ByteLength(piece);`: equivalent when false, utf8ByteLength gives an ASCII piece's length",
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
