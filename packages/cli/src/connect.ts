import { BASE_URL_ENV, type BrowserCloudClient, createClient, TOKEN_ENV } from '@browser-cloud/client';
import type { CliIo } from './cli-io.js';
import { reportError } from './error-output.js';
import { EXIT } from './exit-codes.js';

/**
 * Runs `command` with a client configured as the client configures itself
 * (`BROWSER_CLOUD_BASE_URL`, `BROWSER_CLOUD_API_KEY`), and turns what it throws into an exit code.
 * A missing or invalid variable is reported with the client's message, which names it.
 */
export async function withClient(
  io: CliIo,
  options: { json: boolean; fetch?: CliIo['fetch']; maxRetries?: number | undefined },
  command: (client: BrowserCloudClient) => Promise<number>,
): Promise<number> {
  const fetch = options.fetch ?? io.fetch;
  let client: BrowserCloudClient;
  try {
    client =
      io.client ??
      createClient({
        baseUrl: io.env[BASE_URL_ENV],
        token: io.env[TOKEN_ENV],
        ...(fetch ? { fetch } : {}),
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
