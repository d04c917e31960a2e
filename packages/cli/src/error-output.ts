import { APIError, BrowserCloudError, InvalidResponseError, ValidationError } from '@browser-cloud/client';
import { type CliIo, writeOut } from './cli-io.js';
import { exitCodeFor } from './exit-codes.js';
import { forTerminal, jsonForTerminal } from './terminal-text.js';

/**
 * Reports a failure on stderr and returns its exit code. The client's errors never hold the
 * token; any other error is reported by class only, since its message was not written with the
 * token in mind. With `--json` the report is one JSON object: `{"error": {type, message, …}}`.
 */
export async function reportError(io: CliIo, error: unknown, json: boolean): Promise<number> {
  await writeReport(io, describe(error), json);
  return exitCodeFor(error);
}

/** Writes `report` on stderr: `browser-cloud: message` (and the request ID), or with `--json` `{"error": report}`. */
export async function writeReport(io: CliIo, report: ErrorReport, json: boolean): Promise<void> {
  const text = json
    ? `${jsonForTerminal({ error: report })}\n`
    : forTerminal(
        `browser-cloud: ${report.message}${report.request_id ? `\n  request ID: ${report.request_id}` : ''}\n`,
        { lines: true },
      );
  await writeOut(io.stderr, text);
}

interface ErrorReport {
  type: string;
  message: string;
  status?: number;
  code?: string;
  details?: unknown;
  request_id?: string;
  field?: string;
  rule?: string;
  issues?: unknown;
}

function describe(error: unknown): ErrorReport {
  if (error instanceof ValidationError || error instanceof InvalidResponseError) {
    return { type: error.name, message: error.message, field: error.field, rule: error.rule, issues: error.issues };
  }
  if (error instanceof APIError) {
    return {
      type: error.name,
      message: error.message,
      status: error.status,
      ...(error.code === undefined ? {} : { code: error.code }),
      ...(error.details.length > 0 ? { details: error.details } : {}),
      ...(error.requestId === undefined ? {} : { request_id: error.requestId }),
    };
  }
  if (error instanceof BrowserCloudError) return { type: error.name, message: error.message };
  return { type: error instanceof Error ? error.name : typeof error, message: 'unexpected failure of the CLI' };
}
