import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { TOOL_DEFINITIONS } from '../src/generated/tool-definitions.js';
import type { ToolDefinition } from '../src/tool-definition.js';
import { chooseTools } from '../src/tool-selection.js';
import { DYNAMIC_TOOLS } from '../src/tools/dynamic.js';

// The built bin, as a person and as a host start it.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const { version } = (await import('../package.json', { with: { type: 'json' } })).default;
const run = promisify(execFile);
const ENV = { PATH: process.env['PATH'] ?? '' };

async function exit(args: string[], env: Record<string, string> = ENV) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

describe('browser-cloud-mcp on the command line', () => {
  it('--help prints the usage, the variables and how to add it to a host, and starts no server', async () => {
    const result = await exit(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: browser-cloud-mcp/);
    expect(result.stdout).toContain('BROWSER_CLOUD_BASE_URL');
    expect(result.stdout).toContain('BROWSER_CLOUD_API_KEY');
    expect(result.stdout).toContain(
      `claude mcp add browser-cloud -e BROWSER_CLOUD_BASE_URL=https://api.example.com -e BROWSER_CLOUD_API_KEY=sk_… -- node ${BIN}\n`,
    );
    expect(result.stdout).toContain(`"args": [${JSON.stringify(BIN)}]`);
    expect(result.stdout).toContain('VS Code (.vscode/mcp.json) under "servers"');
  });

  it('--help says how to choose the tools, and when it starts in dynamic mode', async () => {
    const { stdout } = await exit(['--help']);
    for (const option of [
      '--tools=all',
      '--tools=dynamic',
      '--resource=<name>',
      '--operation=read|write',
      '--tool=<name>',
    ])
      expect(stdout).toContain(option);
    expect(stdout).toMatch(/Dynamic mode: with more than 40 tools selected .* and no\n--tools, it lists three tools/);
    expect(stdout).toContain(DYNAMIC_TOOLS.map((tool) => tool.name).join(', '));
  });

  it('refuses an option value it does not take with status 2, naming the option and what it takes, nothing on stdout', async () => {
    const definitions = Object.values(TOOL_DEFINITIONS) as ToolDefinition[];
    const resources = [...new Set(definitions.map((tool) => tool.call.sdk.resource.join('.')))];
    const refusals: Array<[string[], string]> = [
      [['--tools=some'], '--tools=some is not allowed: --tools takes all or dynamic'],
      [['--tools'], '--tools needs a value: --tools takes all or dynamic'],
      [['--operation=delete'], '--operation=delete is not allowed: --operation takes read or write'],
      [['--resource=zz'], `--resource=zz matches no resource; the resources: ${resources.join(', ')}`],
      [['--tool=zz'], `--tool=zz matches no tool; the tools: ${definitions.map((tool) => tool.name).join(', ')}`],
    ];
    for (const [args, message] of refusals) {
      // With the variables set too: the command line is refused before anything starts.
      const result = await exit(args, {
        ...ENV,
        BROWSER_CLOUD_BASE_URL: 'http://127.0.0.1:9',
        BROWSER_CLOUD_API_KEY: 'sk_x',
      });
      expect(result, args.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: `browser-cloud-mcp: ${message}\nSee browser-cloud-mcp --help.\n`,
      });
    }
  });

  it('--version prints the package version', async () => {
    expect(await exit(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('an unknown argument is bad usage', async () => {
    const result = await exit(['--port', '3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^browser-cloud-mcp: unknown argument "--port"/);
  });

  it('names both variables when both are missing, and each alone', async () => {
    const both = await exit([]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(
      /^browser-cloud-mcp: BROWSER_CLOUD_BASE_URL and BROWSER_CLOUD_API_KEY are not set: set them in /,
    );
    // One variable is "it", not "them".
    const base = await exit([], { ...ENV, BROWSER_CLOUD_API_KEY: 'sk_x' });
    expect(base.stderr).toMatch(/^browser-cloud-mcp: BROWSER_CLOUD_BASE_URL is not set: set it in /);
    const key = await exit([], { ...ENV, BROWSER_CLOUD_BASE_URL: 'http://127.0.0.1:9' });
    expect(key.stderr).toMatch(/^browser-cloud-mcp: BROWSER_CLOUD_API_KEY is not set: set it in /);
    // Blank is missing too, said in the server's words (the client's name `token` and createClient()).
    const blank = await exit([], {
      ...ENV,
      BROWSER_CLOUD_BASE_URL: 'http://127.0.0.1:9',
      BROWSER_CLOUD_API_KEY: ' \n',
    });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/^browser-cloud-mcp: BROWSER_CLOUD_API_KEY is not set/);
    expect(blank.stderr).not.toContain('createClient');
  });

  it('starts as the README tells a host to, from this checkout', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    // Claude Code: the command after `--` of `claude mcp add`, run from the root of the repo.
    const added = /claude mcp add browser-cloud [^\n]*\n[^\n]*\n\s*-- node "\$PWD\/([^"]+)"/.exec(readme);
    expect(added?.[1]).toBe('packages/mcp/dist/bin.js');
    expect((await run(process.execPath, [join(ROOT, added![1]!), '--version'], { cwd: ROOT })).stdout).toBe(
      `${version}\n`,
    );
    // The JSON-configured hosts: the README's blocks, with this checkout's path. Claude Desktop and
    // Cursor read "mcpServers"; VS Code reads "servers", each with its "type".
    type Host = { type?: string; command: string; args: string[]; env: Record<string, string> };
    const blocks = [...readme.slice(readme.indexOf('## From a checkout')).matchAll(/```jsonc\n([\s\S]*?)```/g)].map(
      (block) =>
        JSON.parse(
          block[1]!
            .replace(/^\s*\/\/.*$/gm, '')
            .replaceAll('/home/you/browser-cloud-sdk', ROOT)
            .replaceAll('sk_…', 'sk_example'),
        ) as { mcpServers?: Record<string, Host>; servers?: Record<string, Host> },
    );
    expect(blocks.map((config) => Object.keys(config))).toEqual([['mcpServers'], ['servers']]);
    const vscode = blocks[1]!.servers!['browser-cloud']!;
    expect(vscode.type).toBe('stdio');
    for (const host of [blocks[0]!.mcpServers!['browser-cloud']!, vscode]) {
      expect(host.command).toBe('node');
      const client = new Client({ name: 'readme-host', version: '0.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: host.args,
          env: { ...ENV, ...host.env },
          stderr: 'pipe',
        }),
      );
      try {
        // Each tool, or beyond 40 the meta-tools of dynamic mode, as the server chooses without options.
        const { mode } = chooseTools(Object.values(TOOL_DEFINITIONS) as ToolDefinition[]);
        const expected = mode === 'all' ? Object.keys(TOOL_DEFINITIONS) : DYNAMIC_TOOLS.map((tool) => tool.name);
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expected);
      } finally {
        await client.close();
      }
    }
  });

  it('runs from the checkout through the root alias: npm run -s mcp', async () => {
    const { stdout } = await run('npm', ['run', '-s', 'mcp', '--', '--version'], { cwd: ROOT });
    expect(stdout).toBe(`${version}\n`);
  });
});
