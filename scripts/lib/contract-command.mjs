// What `npm run contract [-- <arguments>]` hands turbo. The arguments are the contract runner's
// (apps/contract-tests/scripts/run-contract.mjs: `--allow-skips`, `--target <name>`, vitest's);
// turbo takes them for its own and refuses them ("unexpected argument '--allow-skips' found")
// unless they come after a `--` of turbo's command line, which npm's own `--` does not give it.

/**
 * turbo's arguments for the `contract` task with `argv` (what follows `npm run contract --`) for
 * the runner, and `turboFlags` for turbo itself. A leading `--` (the older `npm run contract -- --
 * --allow-skips`) is taken as the same separator.
 */
export function contractTurboArguments(argv, turboFlags = []) {
  const forwarded = argv[0] === '--' ? argv.slice(1) : argv;
  return ['run', 'contract', ...turboFlags, ...(forwarded.length > 0 ? ['--', ...forwarded] : [])];
}
