// Starts Prism 5.14 (as a mock of the document, or as a validating proxy in front of a real
// server), waits until Prism itself answers, and stops it with its process group.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { OPENAPI_PATH, writeRenderedDocument } from '@browser-cloud/openapi-document';
import { freePort } from './free-port.js';
import { MockStartError } from './mock-start-error.js';

/** Prism's answer to a path the document does not have: how its readiness probe knows Prism. */
const PRISM_ERROR_TYPE = 'https://stoplight.io/prism/errors#';
const PROBE_PATH = '/__prism-readiness-probe';
/**
 * Loaded into Prism before its CLI. Prism's stdin is a pipe from this process: it ends when this
 * process is gone, however it went (SIGKILL included, which no handler sees), and Prism exits
 * then instead of living on, re-parented, on its port.
 */
const EXIT_WITH_PARENT = 'data:text/javascript,process.stdin.on("end",()=>process.exit(0)).resume()';
const OUTPUT_KEPT = 20_000;
const LISTENING = 'Prism is listening on';

export interface StartPrismOptions {
  /** Defaults to a free port. */
  port?: number | undefined;
  host?: string | undefined;
  /** With `upstream`, Prism proxies to it with `--errors`: a response that breaks the document becomes a 500 naming the violation. */
  upstream?: string | undefined;
  /** `false` copies Prism's log to this process's stdout/stderr. Default `true`. */
  quiet?: boolean | undefined;
  readyTimeoutMs?: number | undefined;
  /** The document (YAML or JSON); Prism gets the loader's JSON rendering of it. Defaults to the repository's. */
  document?: string | undefined;
  /** Prism's CLI script; defaults to the installed `@stoplight/prism-cli`. */
  prismBin?: string | undefined;
}

export interface PrismProcess {
  url: string;
  /** Stops Prism and every process of its group; resolves when it has exited. */
  stop(): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last 20,000 characters Prism printed. */
  output(): string;
}

/** The installed Prism CLI script, or a MockStartError that says how to install it. */
export function locatePrism(): string {
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve('@stoplight/prism-cli/package.json');
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { prism: string } };
    return join(dirname(manifest), bin.prism);
  } catch {
    throw prismMissing('@stoplight/prism-cli');
  }
}

function prismMissing(where: string): MockStartError {
  return new MockStartError('prism-missing', `Prism is not installed (${where} not found): run npm ci`);
}

export async function startPrism(options: StartPrismOptions = {}): Promise<PrismProcess> {
  const { host = '127.0.0.1', upstream, quiet = true, readyTimeoutMs = 30_000, document = OPENAPI_PATH } = options;
  const bin = options.prismBin ?? locatePrism();
  if (!existsSync(bin)) throw prismMissing(bin);
  const port = options.port ?? (await freePort(host));
  // Prism's YAML parser misreads valid YAML (it drops the last line break of a `|+` block, so a
  // two-event stream example becomes one event): it reads the loader's JSON rendering instead,
  // which its JSON parser reads as written.
  const renderedDir = mkdtempSync(join(tmpdir(), 'browser-cloud-prism-'));
  const removeRendered = (): void => rmSync(renderedDir, { recursive: true, force: true });
  let spec: string;
  try {
    spec = writeRenderedDocument(document, join(renderedDir, 'openapi.json'));
  } catch (error) {
    removeRendered();
    throw error;
  }
  const args = upstream
    ? ['proxy', spec, upstream, '--errors', '-h', host, '-p', String(port)]
    : ['mock', spec, '-h', host, '-p', String(port)];
  // One process: Prism forks a worker when NODE_ENV=production unless told not to.
  args.push('--no-multiprocess');
  // Its own process group: Ctrl-C in a terminal reaches this process, which stops the group.
  const child = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, bin, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  let listening = false;
  const keep = (chunk: Buffer, to: NodeJS.WriteStream): void => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
    listening ||= output.includes(LISTENING);
    if (!quiet) to.write(chunk);
  };
  child.stdout?.on('data', (chunk: Buffer) => keep(chunk, process.stdout));
  child.stderr?.on('data', (chunk: Buffer) => keep(chunk, process.stderr));
  let spawnError: Error | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (error) => {
      spawnError = error;
      resolve({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  void exited.then(removeRendered);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const stop = (): Promise<void> => stopGroup(child, exited);

  const deadline = Date.now() + readyTimeoutMs;
  let running = true;
  void exited.then(() => {
    running = false;
  });
  for (;;) {
    if (!running) {
      const why = spawnError ? spawnError.message : /EADDRINUSE/.test(output) ? 'its port is in use' : 'it exited';
      throw new MockStartError(
        /EADDRINUSE/.test(output) ? 'port-in-use' : 'prism-exited',
        `Prism did not start on ${url}: ${why}`,
        output,
      );
    }
    const answer = await probe(url);
    // Prism answering is not enough: another Prism may hold the port while this one fails to
    // bind. This one says so once it listens.
    if (answer === 'prism' && listening) break;
    if (answer === 'other') {
      await stop();
      throw new MockStartError(
        'not-prism',
        `port ${port} on ${host} is taken by another server (it answered, but not as Prism)`,
        output,
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new MockStartError('timeout', `Prism did not answer on ${url} within ${readyTimeoutMs} ms`, output);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop, exited, output: () => output };
}

/** `prism` when Prism answers on `url`, `other` when something else does, `none` when nothing does. */
async function probe(url: string): Promise<'prism' | 'other' | 'none'> {
  let response: Response;
  try {
    response = await fetch(`${url}${PROBE_PATH}`, { signal: AbortSignal.timeout(1_000) });
  } catch {
    return 'none';
  }
  const text = await readCapped(response, 4_096).catch(() => '');
  if (response.status !== 404 || !response.headers.get('content-type')?.startsWith('application/problem+json')) {
    return 'other';
  }
  try {
    const body = JSON.parse(text) as { type?: unknown };
    return typeof body.type === 'string' && body.type.startsWith(PRISM_ERROR_TYPE) ? 'prism' : 'other';
  } catch {
    return 'other';
  }
}

/** The first chunk of the body (Prism's small problem document), as text; the rest is not read. */
async function readCapped(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  const first = await reader?.read();
  await reader?.cancel().catch(() => {});
  return Buffer.from(first?.value ?? [])
    .subarray(0, limit)
    .toString('utf8');
}

async function stopGroup(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }, 3_000);
  await exited;
  clearTimeout(timer);
}
