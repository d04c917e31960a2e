/**
 * Characters a terminal acts on rather than shows: C0 controls but tab (ESC starts the sequences
 * that retitle a window or clear the screen), DEL, C1 controls (U+009B is a one-byte CSI), the
 * line and paragraph separators, and the bidirectional overrides that reorder what is shown.
 */
const ACTIVE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escaped = (character: string) =>
  character === '\n'
    ? '\\n'
    : character === '\r'
      ? '\\r'
      : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text from the server (a log message, an event ID, an error message) made safe to print on a
 * terminal: every character a terminal would act on is shown as an escape (`\u001b`, `\r`), so
 * a server can neither move the cursor, retitle the window nor forge a line. `lines` keeps line
 * feeds, for text of several lines that the CLI itself composed around server values.
 */
export function forTerminal(text: string, options: { lines?: boolean } = {}): string {
  return text.replace(ACTIVE, (character) => (character === '\n' && options.lines ? character : escaped(character)));
}

/**
 * `JSON.stringify(value)` with what it leaves raw that a terminal may act on (DEL, C1 controls,
 * bidirectional overrides) written as `\u` escapes: the same JSON, safe to print on a terminal.
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value).replace(ACTIVE, escaped);
}
