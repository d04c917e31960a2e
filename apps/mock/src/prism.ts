// Starts Prism 5.14 on loopback (as a mock of the document, or as a validating proxy in front of a
// real server), waits until it listens and answers as Prism, and stops it with its process group.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { loadOpenApiDocument, OPENAPI_PATH, type OpenApiDocument } from '@browser-cloud/openapi-document';
import { MockStartError } from './mock-start-error.js';
import { prismDocument } from './prism-document.js';

const HOST = '127.0.0.1';
/** Prism's answer to a path the document does not have: how its readiness probe knows Prism. */
const PRISM_ERROR_TYPE = 'https://stoplight.io/prism/errors#';
/**
 * Loaded into Prism before its CLI. Prism's stdin is a pipe from this process: it ends when this
 * process is gone, however it went (SIGKILL included, which no handler sees), and Prism exits
 * then instead of living on, re-parented, on its port.
 */
const EXIT_WITH_PARENT = 'data:text/javascript,process.stdin.on("end",()=>process.exit(0)).resume()';

export interface StartPrismOptions {
  /** Default 0: Prism binds a port the system picks, and says which (no port is chosen before it is bound). */
  port?: number | undefined;
  /** With `upstream`, Prism proxies to it with `--errors`: a response that breaks the document becomes a 500 naming the violation. */
  upstream?: string | undefined;
  /** `false` copies Prism's log to this process's stdout/stderr. Default `true`. */
  quiet?: boolean | undefined;
  readyTimeoutMs?: number | undefined;
  /** Prism's CLI script; defaults to the installed `@stoplight/prism-cli`. */
  prismBin?: string | undefined;
  /** The document Prism mocks, as a file path or loaded; defaults to the repository's. */
  document?: string | OpenApiDocument | undefined;
}

export interface PrismProcess {
  url: string;
  /** Stops Prism and every process of its group; resolves when it has exited. */
  stop(): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last 20,000 characters Prism printed. */
  output(): string;
}

/** The installed Prism CLI script (its package's main is the CLI), or a MockStartError that says how to install it. */
export function locatePrism(): string {
  try {
    return createRequire(import.meta.url).resolve('@stoplight/prism-cli');
  } catch {
    throw prismMissing('@stoplight/prism-cli');
  }
}

function prismMissing(where: string): MockStartError {
  return new MockStartError('prism-missing', `Prism is not installed (${where} not found): run npm ci`);
}

export async function startPrism(options: StartPrismOptions = {}): Promise<PrismProcess> {
  const { upstream, quiet = true, readyTimeoutMs = 30_000 } = options;
  const bin = options.prismBin ?? locatePrism();
  if (!existsSync(bin)) throw prismMissing(bin);
  const port = options.port ?? 0;
  // Prism's YAML parser misreads valid YAML (it drops the last line break of a `|+` block, so a
  // two-event stream example becomes one event): it reads the loader's JSON rendering instead,
  // with the path template names its router cannot match renamed.
  const renderedDir = mkdtempSync(join(tmpdir(), 'browser-cloud-prism-'));
  const removeRendered = (): void => rmSync(renderedDir, { recursive: true, force: true });
  let spec: string;
  try {
    spec = join(renderedDir, 'openapi.json');
    const { document = OPENAPI_PATH } = options;
    writeFileSync(spec, prismDocument(typeof document === 'string' ? loadOpenApiDocument(document) : document));
  } catch (error) {
    removeRendered();
    throw error;
  }
  const mode = upstream ? ['proxy', spec, upstream, '--errors'] : ['mock', spec];
  // One process: Prism forks a worker when NODE_ENV=production unless told not to. Its own process
  // group: Ctrl-C in a terminal reaches this process, which stops the group.
  const args = ['--import', EXIT_WITH_PARENT, bin, ...mode, '-h', HOST, '-p', String(port), '--no-multiprocess'];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let output = '';
  // Prism names the address it bound, the port the system picked for port 0 included.
  let url = `http://${HOST}:${port}`;
  const listened = new Promise<'listening'>((resolve) => {
    const keep = (chunk: Buffer, to: NodeJS.WriteStream): void => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
      const bound = /Prism is listening on (http:\/\/[^\s/]+)/.exec(output);
      if (bound) {
        url = bound[1]!;
        resolve('listening');
      }
      if (!quiet) to.write(chunk);
    };
    child.stdout.on('data', (chunk: Buffer) => keep(chunk, process.stdout));
    child.stderr.on('data', (chunk: Buffer) => keep(chunk, process.stderr));
  });
  let spawnError: Error | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (error) => {
      spawnError = error;
      resolve({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  void exited.then(removeRendered);
  const stop = (): Promise<void> => stopGroup(child, exited);

  const outcome = await Promise.race([
    listened,
    exited.then(() => 'exited' as const),
    delay(readyTimeoutMs, 'timeout' as const, { ref: false }),
  ]);
  if (outcome === 'exited') {
    const inUse = /EADDRINUSE/.test(output);
    const why = spawnError ? spawnError.message : inUse ? 'its port is in use' : 'it exited';
    throw new MockStartError(inUse ? 'port-in-use' : 'prism-exited', `Prism did not start on ${url}: ${why}`, output);
  }
  if (outcome === 'timeout') {
    await stop();
    throw new MockStartError('timeout', `Prism did not answer on ${url} within ${readyTimeoutMs} ms`, output);
  }
  // This Prism says it listens; its answer shows that no other server holds the port.
  if (!(await answersAsPrism(url))) {
    await stop();
    const message = `port ${new URL(url).port} on ${HOST} is taken by another server (it answered, but not as Prism)`;
    throw new MockStartError('not-prism', message, output);
  }
  return { url, stop, exited, output: () => output };
}

/** Whether the server on `url` answers a path the document lacks as Prism does: its problem document, read bounded. */
async function answersAsPrism(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/__prism-readiness-probe`, { signal: AbortSignal.timeout(1_000) });
    const reader = response.body?.getReader();
    const text = Buffer.from((await reader?.read())?.value ?? []).toString('utf8', 0, 4_096);
    await reader?.cancel();
    const type = response.headers.get('content-type') ?? '';
    return response.status === 404 && type.startsWith('application/problem+json') && text.includes(PRISM_ERROR_TYPE);
  } catch {
    return false;
  }
}

/** SIGTERM to the group, SIGKILL if it still runs 3 s later. */
async function stopGroup(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const signal = (name: NodeJS.Signals): boolean => {
    try {
      return process.kill(-child.pid!, name);
    } catch {
      return false;
    }
  };
  if (!signal('SIGTERM')) return;
  const timer = setTimeout(() => signal('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}
