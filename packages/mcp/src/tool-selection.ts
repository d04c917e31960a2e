import type { ToolDefinition } from './tool-definition.js';

/**
 * The most tools a server lists one by one: Cursor warns or stops at about 40 tools across all
 * its servers. With more selected and no `--tools`, the server starts in dynamic mode.
 */
export const MAX_LISTED_TOOLS = 40;

/** What an operation does: `read` for GET and HEAD (a read-only tool), `write` for the rest. */
export type OperationKind = 'read' | 'write';
export const OPERATION_KINDS: readonly OperationKind[] = ['read', 'write'];

/** How the selected tools are served: each listed (`all`), or through the meta-tools (`dynamic`). */
export type ToolsMode = 'all' | 'dynamic';
export const TOOLS_MODES: readonly ToolsMode[] = ['all', 'dynamic'];

/** The choice of tools, as the options of the bin (and of Stainless-generated MCP servers) say it. */
export interface ToolChoice {
  /** `--tools`: undefined lets the number of selected tools decide. */
  readonly mode?: ToolsMode | undefined;
  /** `--resource`: resource names or patterns (`*` for any text: `browsers*`). */
  readonly resources?: readonly string[];
  /** `--operation`: only the tools that read, or that write. */
  readonly operations?: readonly OperationKind[];
  /** `--tool`: tool names or patterns. */
  readonly tools?: readonly string[];
}

/** A choice the tools cannot meet; its message names the option and the values it takes. */
export class ToolChoiceError extends Error {
  override readonly name = 'ToolChoiceError';
}

/** The tool's resource, as the client names it: `client.auth.connections.login` → `auth.connections`. */
export const resourceOf = (tool: ToolDefinition): string => tool.call.sdk.resource.join('.');

export const operationKindOf = (tool: ToolDefinition): OperationKind =>
  tool.annotations?.readOnlyHint === true ? 'read' : 'write';

/** Whether `name` matches `pattern`, where `*` stands for any text and everything else for itself. */
export function matches(pattern: string, name: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'u').test(name);
}

/**
 * The tools the choice selects and how they are served. `--tool` and `--resource` add tools (a
 * tool named, or of a resource named); without either, every tool is a candidate. `--operation`
 * keeps those that read or write. Without `--tools`, more than {@link MAX_LISTED_TOOLS} selected
 * tools are served dynamically (`automatic`).
 * @throws ToolChoiceError for a name or pattern that selects nothing, naming what there is, or
 *   for a choice that leaves no tool.
 */
export function chooseTools(definitions: readonly ToolDefinition[], choice: ToolChoice = {}) {
  const { resources = [], operations = [], tools: names = [] } = choice;
  const resourceNames = [...new Set(definitions.map(resourceOf))];
  const unknown = (option: string, value: string, kind: string, known: readonly string[]) =>
    new ToolChoiceError(`--${option}=${value} matches no ${kind}; the ${kind}s: ${known.join(', ')}`);
  for (const pattern of resources) {
    if (!resourceNames.some((name) => matches(pattern, name)))
      throw unknown('resource', pattern, 'resource', resourceNames);
  }
  for (const pattern of names) {
    if (!definitions.some((tool) => matches(pattern, tool.name))) {
      throw unknown(
        'tool',
        pattern,
        'tool',
        definitions.map((tool) => tool.name),
      );
    }
  }
  const named = (tool: ToolDefinition) =>
    (resources.length === 0 && names.length === 0) ||
    resources.some((pattern) => matches(pattern, resourceOf(tool))) ||
    names.some((pattern) => matches(pattern, tool.name));
  const selected = definitions.filter(
    (tool) => named(tool) && (operations.length === 0 || operations.includes(operationKindOf(tool))),
  );
  if (selected.length === 0) {
    const given = [
      ...resources.map((value) => `--resource=${value}`),
      ...names.map((value) => `--tool=${value}`),
      ...operations.map((value) => `--operation=${value}`),
    ];
    throw new ToolChoiceError(`${given.join(' ')} leave no tool of the ${definitions.length}`);
  }
  const automatic = choice.mode === undefined && selected.length > MAX_LISTED_TOOLS;
  const mode: ToolsMode = choice.mode ?? (automatic ? 'dynamic' : 'all');
  return { tools: selected, mode, automatic };
}
