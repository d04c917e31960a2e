/** Where a log line goes: `process.stdout`, or a test's collector. */
export interface LogOutput {
  write(text: string): unknown;
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** Requests waiting for their "request completed" entry; more are dropped oldest first. */
const MAX_PENDING = 10_000;

interface LogEntry {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string };
}

/**
 * The request log for a terminal: one line per request, `19:58:03.120 PATCH /profiles/x 200 2 ms
 * req_…`, made from the JSON entries Fastify's logger writes for it ("incoming request", then
 * "request completed"). Any other entry prints as its time, level and message. Piped, the sandbox
 * keeps the JSON lines, which tools read.
 */
export function readableRequestLog(out: LogOutput): { write(line: string): void } {
  const pending = new Map<string, { method?: string; url?: string }>();
  return {
    write(line) {
      let entry: LogEntry;
      try {
        entry = JSON.parse(line) as LogEntry;
      } catch {
        out.write(line.endsWith('\n') ? line : `${line}\n`);
        return;
      }
      const time = new Date(entry.time ?? Date.now()).toISOString().slice(11, 23);
      const id = entry.reqId;
      if (entry.msg === 'incoming request' && id !== undefined && entry.req) {
        if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value as string);
        pending.set(id, entry.req);
        return;
      }
      const req = id === undefined ? undefined : pending.get(id);
      if (entry.msg === 'request completed' && entry.res) {
        if (id !== undefined) pending.delete(id);
        const ms = Math.round(entry.responseTime ?? 0);
        out.write(
          `${time} ${req?.method ?? '-'} ${req?.url ?? '-'} ${entry.res.statusCode ?? '-'} ${ms} ms ${id ?? ''}\n`,
        );
        return;
      }
      const level = LEVELS[entry.level ?? 30] ?? String(entry.level);
      const error = entry.err?.message ? `: ${entry.err.message}` : '';
      const request = req ? ` (${req.method} ${req.url} ${id})` : '';
      out.write(`${time} ${level} ${entry.msg ?? ''}${error}${request}\n`);
    },
  };
}
