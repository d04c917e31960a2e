import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The built bin, run as a user runs it: a process with the environment as its only configuration. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

export type Finished = { code: number | null; stdout: string; stderr: string };

/** A running `browser-cloud`, its output collected. */
export class RunningBin {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly #exit: Promise<Finished>;

  constructor(args: readonly string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env } });
    for (const name of ['stdout', 'stderr'] as const) {
      this.child[name].on('data', (chunk: Buffer) => {
        this[name] += chunk.toString();
      });
    }
    this.#exit = once(this.child, 'close').then(([code]) => ({
      code: code as number | null,
      stdout: this.stdout,
      stderr: this.stderr,
    }));
  }

  /** Resolves once `stream` matches `pattern` (output the process writes, no sleeping); rejects if it exits first. */
  async waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<void> {
    const exited = this.#exit.then(() => false);
    while (!pattern.test(this[stream])) {
      if (!(await Promise.race([once(this.child[stream], 'data').then(() => true), exited]))) {
        throw new Error(`exited before ${stream} matched ${pattern}:\n${this.stdout}\n${this.stderr}`);
      }
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
