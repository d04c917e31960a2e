import type { LogEvent } from '@browser-cloud/client';
import { type CliIo, writeOut } from './cli-io.js';
import { forTerminal, jsonForTerminal } from './terminal-text.js';

const ESC = '\u001b[';
const style = (code: string, text: string) => `${ESC}${code}m${text}${ESC}0m`;
const CLEAR_LINE = `\r${ESC}2K`;

/** The colour of a log line by its level word, as Chromium and most loggers write it. */
function levelColour(message: string): string | undefined {
  if (/\b(ERROR|FATAL)\b/.test(message)) return '31';
  if (/\bWARN(ING)?\b/.test(message)) return '33';
  return undefined;
}

/** How `logs tail` shows events and its connection state. */
export function logOutput(io: CliIo, options: { json: boolean }) {
  // A pipe gets NDJSON, a terminal gets lines; `--json` asks for NDJSON on a terminal too.
  const json = options.json || io.stdout.isTTY !== true;
  const colour = !json && io.env['NO_COLOR'] === undefined;
  const statusLine = io.stderr.isTTY === true;
  let showing = false;
  let lastStatus = '';
  const clear = () => {
    if (showing) io.stderr.write(CLEAR_LINE);
    showing = false;
  };

  return {
    /** One event: NDJSON when piped or with `--json`, else a (coloured) line. */
    async event(id: string, event: LogEvent): Promise<void> {
      clear();
      if (json) return writeOut(io.stdout, `${jsonForTerminal({ id, ...event })}\n`);
      // The server's text is shown, never acted on; the colours are the CLI's own.
      const shown = forTerminal(event.message);
      const timestamp = forTerminal(event.timestamp);
      const level = colour ? levelColour(shown) : undefined;
      const message = level ? style(level, shown) : shown;
      await writeOut(io.stdout, `${colour ? style('2', timestamp) : timestamp} ${message}\n`);
    },
    /** The connection state while it is not streaming: a status line on a terminal, a line in a log. */
    status(status: string): void {
      // It may quote an event ID, which the server chose.
      lastStatus = forTerminal(status);
      if (!statusLine) io.stderr.write(`browser-cloud: ${lastStatus}\n`);
      else {
        io.stderr.write(`${CLEAR_LINE}${style('33', `⟳ ${lastStatus}`)}`);
        showing = true;
      }
    },
    /** Streaming again: clears the status line. */
    connected(): void {
      if (lastStatus === '') return;
      lastStatus = '';
      if (statusLine) clear();
      else io.stderr.write('browser-cloud: reconnected\n');
    },
    /** The tail was stopped (Ctrl-C): how to resume after `lastEventId`. */
    async stopped(lastEventId: string): Promise<void> {
      clear();
      const id = forTerminal(lastEventId);
      const text = options.json
        ? jsonForTerminal({ stopped: true, last_event_id: lastEventId })
        : id === ''
          ? 'Stopped before any event.'
          : `Stopped after event ${id}. Resume with: --since-id ${id}`;
      await writeOut(io.stderr, `${text}\n`);
    },
  };
}
