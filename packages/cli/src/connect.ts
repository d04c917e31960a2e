import { BASE_URL_ENV, type BrowserCloudClient, createClient, TOKEN_ENV } from '@browser-cloud/client';
import type { CliIo } from './cli-io.js';
import { EXIT, reportError, writeReport } from './exit-codes.js';

/**
 * Runs `command` with a client configured from the environment, and turns what it throws into an
 * exit code. A missing (or blank) variable is named here, in a command line's words: the client's
 * message speaks to a program ("pass `token` to createClient()").
 */
export async function withClient(
  io: CliIo,
  options: { json: boolean; maxRetries?: number | undefined },
  command: (client: BrowserCloudClient) => Promise<number>,
): Promise<number> {
  const missing = [BASE_URL_ENV, TOKEN_ENV].filter((name) => !io.env[name]?.trim());
  if (missing.length > 0) {
    const [are, them] = missing.length > 1 ? ['are', 'them'] : ['is', 'it'];
    const message = `${missing.join(' and ')} ${are} not set: set ${them} in the environment (see browser-cloud --help).`;
    await writeReport(io, { type: 'ConfigurationError', message }, options.json);
    return EXIT.config;
  }
  let client: BrowserCloudClient;
  try {
    client =
      io.client ??
      createClient({
        baseUrl: io.env[BASE_URL_ENV],
        token: io.env[TOKEN_ENV],
        ...(io.fetch ? { fetch: io.fetch } : {}),
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      });
  } catch (error) {
    await reportError(io, error, options.json);
    return EXIT.config;
  }
  try {
    return await command(client);
  } catch (error) {
    if (io.interrupt.aborted) return interruptedCode(io.interrupt);
    return reportError(io, error, options.json);
  }
}

/** 130 for SIGINT, 143 for SIGTERM. */
export function interruptedCode(signal: AbortSignal): number {
  return signal.reason === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
}
