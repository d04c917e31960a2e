import { type PrismProcess, startPrism } from './prism.js';
import { startValidatingFront } from './validating-front.js';

export interface StartMockOptions {
  /** The front's port; defaults to a free one. Prism always takes a free port of its own. */
  port?: number | undefined;
  host?: string | undefined;
  /** `false` copies Prism's request log to this process's output. Default `true`. */
  quiet?: boolean | undefined;
  maxBodyBytes?: number | undefined;
  requestTimeoutMs?: number | undefined;
  readyTimeoutMs?: number | undefined;
  /** Prism's CLI script; defaults to the installed `@stoplight/prism-cli`. */
  prismBin?: string | undefined;
}

export interface MockServer {
  /** The front's base URL: what clients and the contract suite talk to. */
  readonly url: string;
  /** Prism behind the front (it answers without the front's checks). */
  readonly prismUrl: string;
  /** Settles when Prism exits, for whatever reason. */
  readonly exited: PrismProcess['exited'];
  /** Stops the front and Prism; resolves once both are gone. */
  close(): Promise<void>;
}

/**
 * The mock of the document: Prism, behind a front that refuses with 400 (401 without a token)
 * and an Error body every request the sandbox's request checker refuses, which Prism alone lets
 * through (a query rule over several parameters, a `null` body, a lone surrogate…).
 * @throws MockStartError with a one-line reason (port in use, Prism missing or not starting).
 */
export async function startMock(options: StartMockOptions = {}): Promise<MockServer> {
  let prismStarted!: (url: string) => void;
  let prismFailed!: (error: unknown) => void;
  const prismUrl = new Promise<string>((resolve, reject) => {
    prismStarted = resolve;
    prismFailed = reject;
  });
  // The front listens first, so a taken port fails at once, before Prism's start-up second. A
  // client that connects in that second (it waited for the port, as wait-on or a CI health check
  // does) is held until Prism answers, never told to come back later.
  const front = await startValidatingFront({
    upstream: prismUrl,
    port: options.port,
    host: options.host,
    maxBodyBytes: options.maxBodyBytes,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  let prism: PrismProcess;
  try {
    // Prism listens on loopback only: everything reaches it through the front.
    prism = await startPrism({
      quiet: options.quiet,
      readyTimeoutMs: options.readyTimeoutMs,
      prismBin: options.prismBin,
    });
  } catch (error) {
    prismFailed(error);
    await front.close();
    throw error;
  }
  prismStarted(prism.url);
  const running = prism;
  return {
    url: front.url,
    prismUrl: running.url,
    exited: running.exited,
    close: async () => {
      await Promise.all([front.close(), running.stop()]);
    },
  };
}
