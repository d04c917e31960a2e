/**
 * Characters a terminal acts on rather than shows: C0 controls (ESC starts the sequences that
 * retitle a window or clear the screen), DEL, C1 controls (U+009B is a one-byte CSI), and the
 * bidirectional overrides that reorder what is shown. Tab is shown as it is.
 */
const ACTIVE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const ACTIVE_BUT_LINE_FEED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(character: string): string {
  if (character === '\n') return '\\n';
  if (character === '\r') return '\\r';
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text from the server (a log message, an event ID, an error message) made safe to print on a
 * terminal: every character a terminal would act on is shown as an escape (`\u001b`, `\r`), so
 * a server can neither move the cursor, retitle the window nor forge a line. `lines` keeps line
 * feeds, for text of several lines that the CLI itself composed around server values.
 * JSON output needs none of this: JSON.stringify escapes every control character.
 */
export function forTerminal(text: string, options: { lines?: boolean } = {}): string {
  return text.replace(options.lines === true ? ACTIVE_BUT_LINE_FEED : ACTIVE, visible);
}

/** What JSON.stringify leaves raw and a terminal may still act on: DEL, C1 controls, bidirectional overrides. */
const ACTIVE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify(value)`, with the characters it leaves raw that a terminal may act on written
 * as `\u` escapes: the same JSON (parsing gives the same value), safe to print on a terminal.
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value).replace(
    ACTIVE_IN_JSON,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
