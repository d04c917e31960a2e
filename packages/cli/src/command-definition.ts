import type { OperationCall } from '@browser-cloud/client';

/** A positional argument of a command: a path parameter, or a required scalar property of the body. */
export interface CommandArgument {
  /** The input's name in the document. */
  readonly name: string;
  readonly in: 'path' | 'query' | 'body';
  /** Kebab-case: `<id-or-name>`, `--record-session`. */
  readonly flag: string;
  readonly description: string;
}

/** An option of a command: any other body property or query parameter. */
export interface CommandOption extends CommandArgument {
  /** Of a `oneOf` of one-property objects, flattened (`--proxy-id`): the member's property this option gives. */
  readonly member?: string;
  /** `boolean` is `--x` / `--no-x`; `json` takes a JSON value (or the syntax of the parser of `schema`). */
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'json';
  readonly choices?: readonly string[];
  /** The title of the object schema a `json` value is of: it picks a parser of a shorter syntax where one exists. */
  readonly schema?: string;
}

/** A command as `scripts/command-definitions.mjs` generates it from the operation it calls. */
export interface CommandDefinition {
  readonly operationId: string;
  /** `['profiles', 'rename']`: the operation's SDK name in kebab-case. */
  readonly command: readonly string[];
  /** What the groups it is in (`auth`, `auth connections`) are about: its tag's. */
  readonly group: string;
  readonly summary: string;
  /** The operation's description and example command lines, shown after the usage. */
  readonly help: string;
  readonly call: OperationCall;
  readonly arguments: readonly CommandArgument[];
  readonly options: readonly CommandOption[];
}
