// The consumer as a program, for Node, Bun and Deno: the input as JSON in argv, the result as
// JSON on stdout.
import { run } from './consumer.mjs';

const input = JSON.parse(globalThis.process?.argv?.[2] ?? globalThis.Deno.args[0]);
console.log(JSON.stringify(await run(input)));
