import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The built bin, run as a user runs it: a process with the environment as its only configuration. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A running `browser-cloud`, its output collected; `line` waits for the output to hold a match. */
export class RunningBin {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly #exit: Promise<Finished>;
  readonly #waiters = new Set<() => void>();
  #exited = false;

  constructor(args: readonly string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env } });
    this.child.stdout.on('data', (chunk: Buffer) => this.#grow('stdout', chunk));
    this.child.stderr.on('data', (chunk: Buffer) => this.#grow('stderr', chunk));
    this.#exit = once(this.child, 'close').then(([code]) => ({
      code: code as number | null,
      stdout: this.stdout,
      stderr: this.stderr,
    }));
    void this.#exit.then(() => {
      this.#exited = true;
      for (const wake of this.#waiters) wake();
    });
  }

  #grow(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    this[stream] += chunk.toString();
    for (const wake of this.#waiters) wake();
  }

  /** Resolves once `stream` matches `pattern` (output the process writes, no sleeping); rejects if it exits first. */
  async waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<void> {
    while (!pattern.test(this[stream])) {
      if (this.#exited) throw new Error(`exited before ${stream} matched ${pattern}:\n${this.stdout}\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
      });
    }
  }

  finished(): Promise<Finished> {
    return this.#exit;
  }
}

/** Runs the bin to its end. */
export function runBin(args: readonly string[], env: Record<string, string>): Promise<Finished> {
  return new RunningBin(args, env).finished();
}
