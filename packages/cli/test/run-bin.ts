import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The built bin, run as a user runs it: a process with the environment as its only configuration. */
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** A running `browser-cloud`, its output collected. */
export class RunningBin {
  readonly child;
  stdout = '';
  stderr = '';
  readonly #exit: Promise<unknown>;

  constructor(args: readonly string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env } });
    for (const name of ['stdout', 'stderr'] as const) {
      this.child[name].on('data', (chunk: Buffer) => {
        this[name] += chunk.toString();
      });
    }
    this.#exit = once(this.child, 'close');
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

  /** The exit code and the whole output, once the process has ended. */
  async finished(): Promise<{ code: number | null; stdout: string; stderr: string }> {
    await this.#exit;
    return { code: this.child.exitCode, stdout: this.stdout, stderr: this.stderr };
  }
}

/** Runs the bin to its end. */
export const runBin = (args: readonly string[], env: Record<string, string>) => new RunningBin(args, env).finished();
