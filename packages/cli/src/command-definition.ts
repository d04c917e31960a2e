import type { OperationCall } from '@browser-cloud/client';

/** A positional argument of a command: a path parameter, or a required scalar property of the body. */
export interface CommandArgument {
  /** The input's name in the document; `flag` is it in kebab-case (`id-or-name`). */
  readonly name: string;
  readonly flag: string;
  readonly in: 'path' | 'query' | 'header' | 'body';
  readonly description: string;
  /**
   * How the text given is read: as the schema's scalar type (`1920` as an integer), or as JSON.
   * An option of type `boolean` is a flag, `--x` / `--no-x`.
   */
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'json';
  /** The values an enum allows (of its items, for an array). */
  readonly choices?: readonly (string | number | boolean)[];
  /** An array of items of `type`: a repeatable option, one item each. */
  readonly array?: boolean;
  /** For `json` of a schema that allows a string: text that is not JSON is that string. */
  readonly text?: boolean;
}

/** An option: any other input. A `oneOf` of one-property objects is an option per `member` (`--proxy-id`). */
export interface CommandOption extends CommandArgument {
  readonly member?: string;
  /** For `json`: the syntax of the parser keyed by this title, besides JSON. */
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
