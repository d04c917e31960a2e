import type { OperationCall } from '@browser-cloud/client';

/** A positional argument of a command: a path parameter, or a required scalar property of the body. */
export interface CommandArgument {
  /** The input's name in the document; `flag` is it in kebab-case (`id-or-name`). */
  readonly name: string;
  readonly flag: string;
  readonly in: 'path' | 'query' | 'body';
  readonly description: string;
}

/** An option: any other input. A `oneOf` of one-property objects is an option per `member` (`--proxy-id`). */
export interface CommandOption extends CommandArgument {
  readonly member?: string;
  /** `boolean` is `--x` / `--no-x`; `json` is a JSON value, or the syntax of the parser keyed by `schema` (a title). */
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'json';
  readonly choices?: readonly string[];
  readonly schema?: string;
}

/** A command as `scripts/command-definitions.mjs` generates it from the operation it calls. */
export interface CommandDefinition {
  readonly operationId: string;
  /** The operation's SDK name in kebab-case (`['profiles', 'rename']`), and what its groups are about. */
  readonly command: readonly string[];
  readonly group: string;
  readonly summary: string;
  /** The operation's description and example command lines, shown after the usage. */
  readonly help: string;
  readonly call: OperationCall;
  readonly arguments: readonly CommandArgument[];
  readonly options: readonly CommandOption[];
}
