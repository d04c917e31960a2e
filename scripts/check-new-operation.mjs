#!/usr/bin/env node
// `node scripts/check-new-operation.mjs <operationId>…`, run by `npm run test:api-workflow` on its
// scratch copy once `npm test` passed there: the operations the run added to the document, in
// order (a create before what reads or deletes what it made), each called through the built
// client (its method and its standalone function), the MCP server (its tool) and the CLI (its
// command), all against the sandbox, and found in the contract suite's reports on the mock and the
// sandbox. (The API reference's browser test, in `npm test`, renders every operation.)
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as clientPackage from '@browser-cloud/client';
import { callOperation, createClient } from '@browser-cloud/client';
import {
  findOperation,
  inlineRefs,
  loadOpenApiDocument,
  operationSignature,
  resources,
} from '@browser-cloud/openapi-document';
import { DEFAULT_FIXTURE_REFS, startSandbox } from '@browser-cloud/sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { COMMAND_DEFINITIONS } from '../packages/cli/dist/generated/command-definitions.js';
import { commandWords } from '../packages/cli/scripts/command-definitions.mjs';
import { TOOL_DEFINITIONS } from '../packages/mcp/dist/generated/tool-definitions.js';

const operationIds = process.argv.slice(2);
if (operationIds.length === 0) {
  console.error('usage: node scripts/check-new-operation.mjs <operationId>…');
  process.exit(2);
}
const document = loadOpenApiDocument();
const model = resources(document);
const added = operationIds.map((operationId) => findOperation(document, operationId));
const check = (ok, what) => {
  if (!ok) throw new Error(what);
  console.log(`  ✓ ${what}`);
};

/**
 * A surface's calls, in order: each operation's path values are what an earlier create of this run
 * made (its resource), else a resource of the sandbox's fixture, else the parameter's example;
 * its body is its first example.
 */
async function callEach(surface, call) {
  const made = new Map();
  for (const operation of added) {
    const role = model.roleOf(operation);
    const resource = role?.resource;
    const pathValue = ({ name, collection, parameter }) => {
      if (made.has(resource?.key) && name === operation.path.match(/\{([^}]+)\}$/)?.[1]) return made.get(resource.key);
      const stored = DEFAULT_FIXTURE_REFS[collection];
      const value = operation.method === 'delete' ? stored?.deletable : Object.values(stored ?? {})[0];
      return value?.id ?? value ?? parameter.example;
    };
    const path = Object.fromEntries(
      operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(p)]),
    );
    const media = operation.body && operation.requestBody.content[operation.body.mediaType].media;
    const [example] = Object.values(media?.examples ?? {});
    const body = structuredClone(inlineRefs(document, example)?.value ?? media?.example ?? {});
    const answer = await call(operation, { path, query: {}, body });
    const id = resource && answer?.[resource.idField];
    if (role?.action === 'create' && id !== undefined) made.set(resource.key, id);
    check(true, `${surface}: ${operation.operationId} answers`);
  }
}

const sandbox = await startSandbox({ port: 0, document });
const token = sandbox.fixture.tokens.owner;
const env = { ...process.env, BROWSER_CLOUD_BASE_URL: sandbox.url, BROWSER_CLOUD_API_KEY: token };
const reset = () => fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
try {
  const client = createClient({ baseUrl: sandbox.url, token });
  await callEach('the client', (operation, args) =>
    callOperation(client, operationSignature(document, operation).call, args, {}),
  );

  await reset();
  await callEach('a standalone function', (operation, args) => {
    const { call } = operationSignature(document, operation);
    const standalone = clientPackage[operation.names.function];
    check(typeof standalone === 'function', `the client exports ${operation.names.function}()`);
    // callOperation calls `client.<resource>.<verb>(…)`: here, that is the standalone function.
    const verb = { [call.sdk.verb]: (...values) => standalone(client, ...values) };
    return callOperation(
      call.sdk.resource.reduceRight((inner, name) => ({ [name]: inner }), verb),
      call,
      args,
      {},
    );
  });

  await reset();
  const mcp = new Client({ name: 'api-workflow', version: '0' });
  await mcp.connect(
    new StdioClientTransport({ command: 'node', args: ['packages/mcp/dist/bin.js', '--tools=all'], env }),
  );
  const { tools } = await mcp.listTools();
  await callEach('MCP', async (operation, args) => {
    const tool = Object.values(TOOL_DEFINITIONS).find((t) => t.operationId === operation.operationId);
    check(
      tools.some((t) => t.name === tool?.name),
      `the MCP server lists the tool ${tool?.name}`,
    );
    const values = Object.fromEntries(
      Object.entries(tool.locations).flatMap(([name, where]) =>
        args[where]?.[name] === undefined ? [] : [[name, args[where][name]]],
      ),
    );
    const result = await mcp.callTool({ name: tool.name, arguments: values });
    check(!result.isError, `the tool ${tool.name} answers: ${JSON.stringify(result.content).slice(0, 160)}`);
    return result.structuredContent;
  });
  await mcp.close();

  await reset();
  await callEach('the CLI', async (operation, args) => {
    const definition = COMMAND_DEFINITIONS.find((c) => c.operationId === operation.operationId);
    check(definition !== undefined, `the CLI has a command for ${operation.operationId}`);
    const argv = [
      ...definition.command,
      ...commandWords(definition, (input) => args[input.in]?.[input.name]),
      '--json',
    ];
    // Not spawnSync: the sandbox answering the CLI runs in this process.
    const cli = await new Promise((resolve) =>
      execFile('node', ['packages/cli/dist/bin.js', ...argv], { env }, (error, stdout, stderr) =>
        resolve({ status: error ? error.code : 0, stdout, stderr }),
      ),
    );
    check(cli.status === 0, `browser-cloud ${argv.join(' ')} exits 0${cli.status === 0 ? '' : `: ${cli.stderr}`}`);
    return cli.stdout.trim() === '' ? undefined : JSON.parse(cli.stdout);
  });
} finally {
  await sandbox.close();
}

for (const target of ['mock', 'sandbox']) {
  const summary = JSON.parse(readFileSync(`apps/contract-tests/reports/${target}/summary.json`, 'utf8'));
  for (const { operationId } of added) {
    const { passed = 0, failed } = summary.operations?.[operationId] ?? {};
    check(passed > 0 && failed === 0, `the contract suite ran ${passed} cases of ${operationId} on the ${target}`);
  }
}
