/**
 * Parses a `Retry-After` header: delay-seconds or an HTTP-date. Returns
 * milliseconds from `now` (never negative), or `undefined` when absent or
 * malformed.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#field.retry-after
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  // An empty value matches neither form below.
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a day name;
  // requiring it keeps Date.parse from accepting things like "1.5".
  if (!/^(?:mon|tue|wed|thu|fri|sat|sun)/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
