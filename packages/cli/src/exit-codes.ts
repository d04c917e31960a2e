import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BrowserCloudError,
  ConflictError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  refusedTokenHint,
  ValidationError,
} from '@browser-cloud/client';
import { type CliIo, writeOut } from './cli-io.js';
import { forTerminal, jsonForTerminal } from './terminal-text.js';

/**
 * The exit codes of `browser-cloud` (the README's table), what `--help` says of each, and the
 * classes of the client's errors that exit with it, a subclass before its superclass.
 */
const CODES = {
  ok: [0, 'success'],
  failure: [1, 'other failure (an answer the CLI cannot use)'],
  usage: [2, 'bad usage or bad input, found before any request', ValidationError],
  config: [3, 'configuration: BROWSER_CLOUD_API_KEY or BROWSER_CLOUD_BASE_URL missing or invalid'],
  auth: [4, '401 or 403: the API key is invalid or lacks the permission', AuthenticationError, PermissionDeniedError],
  notFound: [5, '404: not found (or projects disabled)', NotFoundError],
  conflict: [6, '409: a login flow already in progress, a profile name already taken', ConflictError],
  api: [7, 'any other API error (400 from the server, 429, 5xx)', APIError],
  connection: [8, 'the service could not be reached or timed out', APIConnectionError],
  interrupted: [130, 'interrupted (Ctrl-C)'],
  terminated: [143, 'terminated (SIGTERM)'],
} as const;

export const EXIT = Object.fromEntries(Object.entries(CODES).map(([name, [code]]) => [name, code])) as {
  readonly [Name in keyof typeof CODES]: (typeof CODES)[Name][0];
};

/** For `--help`. */
export const EXIT_CODES_HELP = `Exit codes:\n${Object.values(CODES)
  .map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`)
  .join('\n')}`;

/** The exit code for an error the client threw; anything else is a failure. */
export function exitCodeFor(error: unknown): number {
  const match = Object.values(CODES).find(([, , ...types]) => types.some((type) => error instanceof type));
  return (match ?? CODES.failure)[0];
}

/**
 * Reports a failure on stderr and returns its exit code. The client's errors never hold the
 * token; any other error is reported by class only, since its message was not written with the
 * token in mind.
 */
export async function reportError(io: CliIo, error: unknown, json: boolean): Promise<number> {
  await writeReport(io, describe(error), json);
  return exitCodeFor(error);
}

/** What stderr says of a failure; with `--json`, `{"error": report}`. */
type Report = { type: string; message: string; request_id?: string | undefined } & Record<string, unknown>;

function describe(error: unknown): Report {
  if (error instanceof ValidationError || error instanceof InvalidResponseError) {
    return { type: error.name, message: error.message, field: error.field, rule: error.rule, issues: error.issues };
  }
  if (error instanceof APIError) {
    // JSON leaves out what is undefined. A refused key: which variable to check, as the MCP server says it.
    const { name: type, message, status, code, requestId: request_id } = error;
    const hint = error instanceof AuthenticationError ? refusedTokenHint() : undefined;
    const details = error.details.length > 0 ? error.details : undefined;
    return { type, message, status, code, details, hint, request_id };
  }
  if (error instanceof BrowserCloudError) return { type: error.name, message: error.message };
  return { type: error instanceof Error ? error.name : typeof error, message: 'unexpected failure of the CLI' };
}

/**
 * Writes `report` on stderr: `browser-cloud: message` (then its hint and the request ID), or with
 * `--json` `{"error": report}`.
 */
export async function writeReport(io: CliIo, report: Report, json: boolean): Promise<void> {
  const hint = typeof report['hint'] === 'string' ? `\n  ${report['hint']}` : '';
  const id = report.request_id ? `\n  request ID: ${report.request_id}` : '';
  const text = json
    ? jsonForTerminal({ error: report })
    : forTerminal(`browser-cloud: ${report.message}${hint}${id}`, { lines: true });
  await writeOut(io.stderr, `${text}\n`);
}
