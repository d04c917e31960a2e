#!/usr/bin/env node
import { banner } from './cli-banner.js';
import { parseCliArgs, USAGE } from './cli-args.js';
import { startSandbox } from './start-sandbox.js';

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
