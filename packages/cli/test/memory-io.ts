import type { BrowserCloudClient } from '@browser-cloud/client';
import type { CliIo } from '../src/cli-io.js';

/** An io for `run` in the test's process: its output collected, and a client of the test's own. */
export function memoryIo(client: object) {
  const out = { stdout: '', stderr: '' };
  const stream = (key: keyof typeof out) => ({
    write: (chunk: string) => {
      out[key] += chunk;
      return true;
    },
    once: () => undefined,
  });
  const io: CliIo = {
    stdout: stream('stdout'),
    stderr: stream('stderr'),
    // Set, as the CLI asks before it runs: the client given is used instead of one made from them.
    env: { BROWSER_CLOUD_BASE_URL: 'http://127.0.0.1:9', BROWSER_CLOUD_API_KEY: 'sk_unused' },
    interrupt: new AbortController().signal,
    client: client as BrowserCloudClient,
  };
  return { io, out };
}
