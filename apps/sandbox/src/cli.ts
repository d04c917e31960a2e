#!/usr/bin/env node
import { parseCliArgs, USAGE } from './cli-args.js';
import type { FixtureSummary } from './fixture/load-fixture.js';
import { SANDBOX_PREFIX } from './routes/sandbox-routes.js';
import { startSandbox } from './start-sandbox.js';

/** What the CLI prints on start: where it listens, the tokens and ids to try. */
function banner(url: string, fixture: FixtureSummary): string {
  const { tokens, authConnections, proxies, profiles, browsers } = fixture;
  const ids = { 'auth connections': authConnections, proxies, profiles, browsers };
  const firstToken = Object.values(tokens)[0] ?? '<token>';
  return [
    `Browser Cloud sandbox listening on ${url}`,
    '',
    'Tokens (Authorization: Bearer <token>):',
    ...Object.entries(tokens).map(([name, token]) => `  ${name.padEnd(17)}${token}`),
    '',
    'Ids:',
    ...Object.entries(ids).map(([title, list]) => `  ${title.padEnd(17)}${list.join(', ') || '-'}`),
    '',
    `Inspection: ${url}${SANDBOX_PREFIX}/state   ${url}${SANDBOX_PREFIX}/flows/<connection id>`,
    `Try: curl -X POST -H 'Authorization: Bearer ${firstToken}' ${url}/auth/connections/${authConnections[0] ?? '<id>'}/login`,
    '',
    'Ctrl-C stops it.',
  ].join('\n');
}

// `npm run sandbox`: starts the sandbox, prints what to try, stops on SIGINT/SIGTERM.
let command: ReturnType<typeof parseCliArgs>;
try {
  command = parseCliArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
if (command.help) {
  console.log(USAGE);
  process.exit(0);
}
const sandbox = await startSandbox(command.options).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
console.log(banner(sandbox.url, sandbox.fixture));

let stopping = false;
const stop = (signal: NodeJS.Signals): void => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the sandbox`);
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
