import type { BrowserCloudClient, FetchLike } from '@browser-cloud/client';

/** A stream the CLI writes to: a terminal or a pipe. */
export interface OutputStream {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
  readonly isTTY?: boolean | undefined;
}

/** What a run of the CLI talks to; `bin.ts` passes the process's own. */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C; `reason` is the signal's name. */
  readonly interrupt: AbortSignal;
  /** A fetch to use instead of the global one (tests). */
  readonly fetch?: FetchLike | undefined;
  /** A client to use instead of one configured from the environment (tests). */
  readonly client?: BrowserCloudClient | undefined;
}

/** Writes and waits for the stream to drain when it asks to, so a slow pipe holds back the reader. */
export async function writeOut(stream: OutputStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
}
