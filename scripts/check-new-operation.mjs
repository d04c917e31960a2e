#!/usr/bin/env node
// `node scripts/check-new-operation.mjs <operationId>`, run by `npm run test:api-workflow` on its
// scratch copy once `npm test` passed there: the operation the run added to the document, called
// through the built client (its method and its standalone function), the sandbox, the MCP server
// (its tool) and the CLI (its command), and found in the contract suite's reports on the mock and
// the sandbox. (The API reference's browser test, in `npm test`, renders every operation.)
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as clientPackage from '@browser-cloud/client';
import { callOperation, createClient } from '@browser-cloud/client';
import { findOperation, loadOpenApiDocument, operationSignature } from '@browser-cloud/openapi-document';
import { DEFAULT_FIXTURE_REFS, startSandbox } from '@browser-cloud/sandbox';
import { COMMAND_DEFINITIONS } from '../packages/cli/dist/generated/command-definitions.js';
import { TOOL_DEFINITIONS } from '../packages/mcp/dist/generated/tool-definitions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [operationId] = process.argv.slice(2);
const document = loadOpenApiDocument();
const operation = findOperation(document, operationId);
const { call } = operationSignature(document, operation);
const tool = Object.values(TOOL_DEFINITIONS).find((t) => t.operationId === operationId);
const command = COMMAND_DEFINITIONS.find((c) => c.operationId === operationId)?.command;
const check = (ok, what) => {
  if (!ok) throw new Error(`${operationId}: ${what}`);
  console.log(`  ✓ ${what}`);
};

/** A value for a path parameter: a resource of the sandbox's fixture where it stores one, else the example. */
function pathValue({ collection, parameter }) {
  const stored = DEFAULT_FIXTURE_REFS[collection];
  const value = operation.method === 'delete' ? stored?.deletable : Object.values(stored ?? {})[0];
  return String(value?.id ?? value ?? parameter.example ?? 'x');
}

const sandbox = await startSandbox({ port: 0 });
const token = sandbox.fixture.tokens.owner;
const env = { ...process.env, BROWSER_CLOUD_BASE_URL: sandbox.url, BROWSER_CLOUD_API_KEY: token };
const reset = () => fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
const path = Object.fromEntries(operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(p)]));
const args = { path, query: {}, body: {} };
try {
  const client = createClient({ baseUrl: sandbox.url, token });
  await callOperation(client, call, args, {});
  check(true, `client.${[...operation.sdk.resource, operation.sdk.verb].join('.')}() answers`);

  await reset();
  const standalone = clientPackage[operation.names.function];
  check(typeof standalone === 'function', `the client exports ${operation.names.function}()`);
  await standalone(client, ...call.path.map((name) => args.path[name]));
  check(true, `${operation.names.function}() answers`);

  await reset();
  const mcp = new Client({ name: 'api-workflow', version: '0' });
  await mcp.connect(
    new StdioClientTransport({ command: 'node', args: ['packages/mcp/dist/bin.js', '--tools=all'], env }),
  );
  const { tools } = await mcp.listTools();
  const listed = tools.some((t) => t.name === tool?.name);
  check(listed, `the MCP server lists the tool ${tool?.name}`);
  const result = await mcp.callTool({ name: tool.name, arguments: args.path });
  check(!result.isError, `the tool ${tool.name} answers: ${JSON.stringify(result.content).slice(0, 120)}`);
  await mcp.close();

  await reset();
  const argv = [...(command ?? []), ...call.path.map((name) => args.path[name]), '--json'];
  // Not spawnSync: the sandbox answering the CLI runs in this process.
  const cli = await new Promise((resolve) =>
    execFile('node', ['packages/cli/dist/bin.js', ...argv], { env }, (error, _stdout, stderr) =>
      resolve({ status: error ? error.code : 0, stderr }),
    ),
  );
  check(cli.status === 0, `browser-cloud ${argv.join(' ')} exits 0${cli.status === 0 ? '' : `: ${cli.stderr}`}`);
} finally {
  await sandbox.close();
}

for (const target of ['mock', 'sandbox']) {
  const summary = JSON.parse(readFileSync(`apps/contract-tests/reports/${target}/summary.json`, 'utf8'));
  const { passed = 0, failed } = summary.operations?.[operationId] ?? {};
  check(passed > 0 && failed === 0, `the contract suite ran ${passed} cases of it on the ${target}`);
}
