/**
 * At most `max` characters of `text`, for messages that quote what a client sent: a quote of a
 * huge input would make the answer as large as the input. A cut says how long the input was.
 */
export function excerpt(text: string, max = 100): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
