import { type PrismProcess, type StartPrismOptions, startPrism } from './prism.js';
import { startValidatingFront, type ValidatingFrontOptions } from './validating-front.js';

/** The front's options (its port defaults to a free one; Prism always takes a free port of its own) and Prism's. */
export type StartMockOptions = Pick<ValidatingFrontOptions, 'port' | 'host' | 'maxBodyBytes' | 'requestTimeoutMs'> &
  Pick<StartPrismOptions, 'quiet' | 'readyTimeoutMs' | 'prismBin'> & {
    /**
     * Called with the front's URL as soon as it listens, before Prism is ready: with port 0, the
     * first moment the chosen port is known. Requests sent then wait for Prism.
     */
    onFrontListening?: ((url: string) => void) | undefined;
  };

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
 * The mock of the document: Prism, behind a front that refuses what the sandbox's checker refuses.
 * @throws MockStartError with a one-line reason (port in use, Prism missing or not starting).
 */
export async function startMock(options: StartMockOptions = {}): Promise<MockServer> {
  const { port, host, maxBodyBytes, requestTimeoutMs, quiet, readyTimeoutMs, prismBin, onFrontListening } = options;
  let started!: (prism: Promise<PrismProcess>) => void;
  const prism = new Promise<PrismProcess>((resolve) => {
    started = resolve;
  });
  // The front listens first, so a taken port fails at once, before Prism's start-up second. A
  // client that connects in that second (it waited for the port, as wait-on or a CI health check
  // does) is held until Prism answers, never told to come back later.
  const upstream = prism.then((running) => running.url);
  const front = await startValidatingFront({ upstream, port, host, maxBodyBytes, requestTimeoutMs });
  onFrontListening?.(front.url);
  // Prism listens on loopback only: everything reaches it through the front.
  started(startPrism({ quiet, readyTimeoutMs, prismBin }));
  const running = await prism.catch(async (error: unknown) => {
    await front.close();
    throw error;
  });
  return {
    url: front.url,
    prismUrl: running.url,
    exited: running.exited,
    close: async () => {
      await Promise.all([front.close(), running.stop()]);
    },
  };
}
