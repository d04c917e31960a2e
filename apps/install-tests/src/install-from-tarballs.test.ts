// The publishable packages as a consumer outside the monorepo gets them: packed as `npm run pack`
// packs them (the workspaces not marked private), the tarballs installed into a fresh project in
// the system temp directory (third-party dependencies from the npm registry or its local cache),
// a TypeScript consumer type-checked with moduleResolution node16 and bundler, then run by plain
// Node against the sandbox; the CLI's and the MCP server's bins run from the installed tarballs too.
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { TOOL_DEFINITIONS } from '@browser-cloud/mcp';
import {
  DEFAULT_FIXTURE_REFS as R,
  flowTypesOf,
  loadSandboxDocument,
  type RunningSandbox,
  startSandbox,
} from '@browser-cloud/sandbox';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, publishablePackages, workspaceManifests } from '@browser-cloud/tooling/workspaces';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
const CONSUMER = resolve(import.meta.dirname, '../consumer');
const PACKAGES = publishablePackages(REPO_ROOT);
const run = promisify(execFile);

let project: string;
let tarballs: Map<string, string>;
let sandbox: RunningSandbox;

/** Runs a command; on failure the error carries its output, so the test report shows why. */
async function sh(command: string, args: string[], cwd: string) {
  try {
    return await run(command, args, { cwd, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

const tsc = (config: string) => sh(process.execPath, ['node_modules/typescript/bin/tsc', '-p', config], project);
let compiled: ReturnType<typeof tsc> | undefined;
/** The node16 build emits dist/main.js; compiled once for the type check and the run. */
const compileNode16 = () => {
  compiled ??= tsc('tsconfig.node16.json');
  return compiled;
};

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'browser-cloud-consumer-'));
  // turbo has built the packages (this task depends on their build). The repo's own pins of the
  // compiler, so that the check does not depend on what the registry calls latest.
  const { devDependencies } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  tarballs = installPacked(REPO_ROOT, project, {
    typescript: devDependencies.typescript,
    '@types/node': devDependencies['@types/node'],
  });
  for (const file of readdirSync(CONSUMER)) copyFileSync(join(CONSUMER, file), join(project, file));
  sandbox = await startSandbox({ port: 0 });
});

afterAll(async () => {
  await sandbox?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the packed packages', () => {
  it('are the workspaces not marked private, and their bins are executable once built', () => {
    expect(PACKAGES.length).toBeGreaterThan(0);
    expect([...tarballs.keys()].sort()).toEqual([...PACKAGES].sort());
    const bins = PACKAGES.flatMap((name) => {
      const dir = join(REPO_ROOT, 'node_modules', name);
      const { bin = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return Object.values(bin as Record<string, string>).map((path) => join(dir, path));
    });
    expect(bins.length).toBeGreaterThan(0);
    for (const bin of bins) expect(statSync(bin).mode & 0o111, `${bin} is executable`).toBe(0o111);
  });

  it('each hold built code, types and the sources their maps point to, and no tests', async () => {
    for (const name of PACKAGES) {
      const tarball = tarballs.get(name);
      expect(tarball, `${name} was packed`).toBeTruthy();
      const { stdout } = await sh('tar', ['tzf', tarball!], project);
      const entries = stdout.split('\n');
      expect(entries).toContain('package/dist/index.js');
      expect(entries).toContain('package/dist/index.d.ts');
      expect(entries).toContain('package/src/index.ts');
      expect(entries.filter((e) => /\.test(-d)?\.ts$|test-support/.test(e))).toEqual([]);
      const map = JSON.parse(readFileSync(join(project, 'node_modules', name, 'dist/index.d.ts.map'), 'utf8'));
      for (const source of map.sources) {
        expect(() => readFileSync(join(project, 'node_modules', name, 'dist', source))).not.toThrow();
      }
    }
  });

  it('name their internal dependencies with real ranges, resolved to the packed versions', () => {
    const manifest = (name: string) =>
      JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
        dependencies?: Record<string, string>;
      };
    const internal = PACKAGES.flatMap((name) =>
      Object.entries(manifest(name).dependencies ?? {})
        .filter(([dependency]) => dependency.startsWith('@browser-cloud/'))
        .map(([dependency, range]) => ({ name, dependency, range })),
    );
    // The same internal dependencies as the repo's manifests.
    const inRepo = workspaceManifests(REPO_ROOT)
      .map((path) => JSON.parse(readFileSync(path, 'utf8')))
      .filter((m) => PACKAGES.includes(m.name))
      .flatMap((m) =>
        Object.keys(m.dependencies ?? {})
          .filter((d) => PACKAGES.includes(d))
          .map((d) => `${m.name} → ${d}`),
      );
    expect(internal.map(({ name, dependency }) => `${name} → ${dependency}`).sort()).toEqual(inRepo.sort());
    expect(internal.length).toBeGreaterThan(0);
    for (const { name, dependency, range } of internal) {
      expect(range, `${name}'s range for ${dependency}`).toMatch(/^\^\d+\.\d+\.\d+$/);
      expect(manifest(dependency).version).toBe(manifest(name).version);
    }
  });
});

describe('a TypeScript consumer of the installed packages', () => {
  it('type-checks with moduleResolution node16 and bundler', async () => {
    await tsc('tsconfig.bundler.json');
    await compileNode16();
  });

  it('fails to type-check a request body with a misspelt field (the types are real)', async () => {
    await expect(tsc('tsconfig.wrong-field.json')).rejects.toThrow(/wrong-field\.ts.*'nam'/s);
  });

  it('runs in plain Node against the sandbox: login, rename, a typed conflict, the log stream, the /raw subpath', async () => {
    await compileNode16();
    const { path } = R.browsers.main;
    const { stdout } = await sh(
      process.execPath,
      [
        'dist/main.js',
        sandbox.url,
        R.tokens.owner,
        R.profiles.defaultProject.id,
        R.profiles.unnamed.id,
        R.authConnections.withoutCredentials,
        R.browsers.main.id,
        path,
      ],
      project,
    );
    // The installed types say which document they were built from: its info.version, which may run
    // ahead of the package's own version until `npm run release` (docs/changing-the-api.md, "Versions between an edit and its release").
    const document = loadSandboxDocument();
    expect(JSON.parse(stdout)).toEqual({
      documentVersion: document.info.version,
      flowType: flowTypesOf(document).login,
      name: 'installed-consumer',
      conflict: 'ConflictError',
      messages: [expect.stringContaining('page loaded'), expect.stringContaining('took 2113 ms'), expect.any(String)],
      raw: 'installed-raw',
    });
  });
});

describe('the installed client, bundled', () => {
  const bundle = async (platform: 'browser' | 'node') => {
    const contents = "export { createClient } from '@browser-cloud/client';";
    const options = { bundle: true, format: 'esm', platform, write: false, logLevel: 'silent' } as const;
    return (await build({ stdin: { contents, resolveDir: project }, ...options })).outputFiles[0]?.text ?? '';
  };

  it("for the browser takes the client's browser fetch module (package.json `browser`), without Node's path", async () => {
    const [browser, node] = [await bundle('browser'), await bundle('node')];
    expect(node).toContain('unexpected redirect');
    expect(browser).toContain('redirect: "manual"');
    expect(browser).not.toContain('unexpected redirect');
  });
});

describe('the installed bins', () => {
  const env = () => ({
    ...process.env,
    NO_COLOR: '1',
    BROWSER_CLOUD_BASE_URL: sandbox.url,
    BROWSER_CLOUD_API_KEY: R.tokens.owner,
  });

  it('browser-cloud renames a profile (JSON out) and refuses a bad name before the network (exit 2)', async () => {
    const bin = join(project, 'node_modules/.bin/browser-cloud');
    const renamed = await run(bin, ['profiles', 'rename', R.profiles.unnamed.id, 'installed-cli', '--json'], {
      cwd: project,
      env: env(),
    });
    expect(JSON.parse(renamed.stdout)).toMatchObject({ id: R.profiles.unnamed.id, name: 'installed-cli' });

    const refused = await run(bin, ['profiles', 'rename', R.profiles.unnamed.id, 'x'.repeat(256)], {
      cwd: project,
      env: env(),
    }).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringMatching(/name.*255/) });
  });

  it('browser-cloud-mcp answers over stdio: its tools, one per operation, and a call through the client', async () => {
    const server = spawn(join(project, 'node_modules/.bin/browser-cloud-mcp'), ['--tools=all'], {
      cwd: project,
      env: env(),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      const answers = new Map<number, { result?: Record<string, unknown>; error?: unknown }>();
      const waiting = new Map<number, () => void>();
      let buffered = '';
      server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
          const message = JSON.parse(buffered.slice(0, end));
          buffered = buffered.slice(end + 1);
          if (typeof message.id === 'number') {
            answers.set(message.id, message);
            waiting.get(message.id)?.();
          }
        }
      });
      let nextId = 0;
      const request = (method: string, params: Record<string, unknown>) => {
        const id = ++nextId;
        const answered = new Promise<void>((resolve) => waiting.set(id, resolve));
        server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
        return answered.then(() => answers.get(id)!);
      };

      const init = await request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'install-tests', version: '0.0.0' },
      });
      expect(init.result).toMatchObject({ serverInfo: { name: expect.any(String) } });
      server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);

      const list = await request('tools/list', {});
      const tools = ((list.result?.['tools'] ?? []) as { name: string }[]).map((tool) => tool.name).sort();
      expect(tools).toEqual(Object.keys(TOOL_DEFINITIONS).sort());

      const call = await request('tools/call', {
        name: 'rename_profile',
        arguments: { id_or_name: R.profiles.unnamed.id, name: 'installed-mcp' },
      });
      expect(call.result?.['isError']).not.toBe(true);
      expect(call.result).toMatchObject({
        structuredContent: { id: R.profiles.unnamed.id, name: 'installed-mcp' },
      });
    } finally {
      server.kill();
    }
  });
});
