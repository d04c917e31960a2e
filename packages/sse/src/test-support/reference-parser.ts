import type { SseEvent } from '../event-parser.js';

/**
 * A deliberately naive, spec-literal reader used as a test oracle: decode the whole input at once,
 * split with a regular expression, then follow the WHATWG steps word for word (a data buffer with
 * a trailing LF, etc.). No limits.
 */
export function referenceParse(
  input: Uint8Array,
  initialLastEventId = '',
): { events: SseEvent[]; lastEventId: string } {
  // A default TextDecoder strips one leading BOM, as the spec requires.
  const lines = new TextDecoder('utf-8').decode(input).split(/\r\n|\r|\n/);
  lines.pop(); // the part after the last terminator is not a line
  const events: SseEvent[] = [];
  let data = '';
  let type = '';
  let retry: number | undefined;
  let idBuffer = initialLastEventId;
  let lastEventId = initialLastEventId;
  for (const line of lines) {
    if (line === '') {
      lastEventId = idBuffer;
      if (data !== '') {
        const event: SseEvent = { event: type === '' ? 'message' : type, data: data.slice(0, -1), id: lastEventId };
        if (retry !== undefined) event.retry = retry;
        events.push(event);
      }
      data = '';
      type = '';
      retry = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data += `${value}\n`;
    else if (field === 'id' && !value.includes('\0')) idBuffer = value;
    else if (field === 'retry' && /^[0-9]+$/.test(value)) retry = Number(value);
  }
  return { events, lastEventId };
}
