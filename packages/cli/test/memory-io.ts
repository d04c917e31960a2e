import type { BrowserCloudClient } from '@browser-cloud/client';
import type { CliIo } from '../src/cli-io.js';
import { run } from '../src/program.js';

/** Streams that collect what is written to them. */
function collected() {
  const out = { stdout: '', stderr: '' };
  const stream = (key: keyof typeof out) => ({
    write: (chunk: string) => {
      out[key] += chunk;
      return true;
    },
    once: () => undefined,
  });
  return { out, stdout: stream('stdout'), stderr: stream('stderr') };
}

/** An io for `run` in the test's process: its output collected, and a client of the test's own. */
export function memoryIo(client: object) {
  const { out, stdout, stderr } = collected();
  const io: CliIo = {
    stdout,
    stderr,
    // Set, as the CLI asks before it runs: the client given is used instead of one made from them.
    env: { BROWSER_CLOUD_BASE_URL: 'http://127.0.0.1:9', BROWSER_CLOUD_API_KEY: 'sk_unused' },
    interrupt: new AbortController().signal,
    client: client as BrowserCloudClient,
  };
  return { io, out };
}

/**
 * The CLI run in the test's process as the bin runs it (see `bin.ts`): `env` is its whole
 * environment and its output, to a pipe, is collected; the exit code is what the bin would exit
 * with. What only a process shows (its memory, signals, a closed pipe) is run with `runBin`.
 */
export async function runCli(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { out, stdout, stderr } = collected();
  const code = await run(args, { stdout, stderr, env, interrupt: new AbortController().signal });
  return { code, ...out };
}
