import { readFileSync } from 'node:fs';
import { OPENAPI_PATH, operations, parseOpenApiDocument } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import { withCrudOperations } from '../../../scripts/lib/api-workflow-changes.mjs';
import { toolDefinitions } from '../scripts/tool-definitions.mjs';
import { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
import type { ToolDefinition } from './tool-definition.js';
import {
  chooseTools,
  MAX_LISTED_TOOLS,
  matches,
  operationKindOf,
  resourceOf,
  ToolChoiceError,
} from './tool-selection.js';

// The repository's tools, and those of its document with 100 CRUD operations over 20 resources
// added (the service at its size): what is chosen follows from the definitions, not from names
// written here, but for the synthetic resources the test added itself.
const document = parseOpenApiDocument(withCrudOperations(readFileSync(OPENAPI_PATH, 'utf8'), 100), 'scaled.yaml');
const large = Object.values(toolDefinitions(document));
const small = Object.values(TOOL_DEFINITIONS) as ToolDefinition[];
/** The tools' names, sorted: the order is the document's. */
const names = (tools: readonly ToolDefinition[]) => tools.map((tool) => tool.name).sort();

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolChoiceError) return error.message;
    throw error;
  }
  throw new Error('no ToolChoiceError');
}

describe('chooseTools', () => {
  it('lists every tool of a document of 40 tools or fewer, and serves more dynamically, saying it chose so', () => {
    expect(small.length).toBeLessThanOrEqual(MAX_LISTED_TOOLS);
    expect(chooseTools(small)).toEqual({ tools: small, mode: 'all', automatic: false });
    expect(large).toHaveLength([...operations(document)].length);
    expect(chooseTools(large)).toEqual({ tools: large, mode: 'dynamic', automatic: true });
    expect(chooseTools(large, { mode: 'all' })).toEqual({ tools: large, mode: 'all', automatic: false });
    expect(chooseTools(small, { mode: 'dynamic' })).toEqual({ tools: small, mode: 'dynamic', automatic: false });
  });

  it('--resource selects a resource’s tools, by name or by pattern, and a selection of 40 or fewer is listed', () => {
    const widgets = chooseTools(large, { resources: ['widgets'] });
    expect(names(widgets.tools)).toEqual([
      'create_widget',
      'delete_widget',
      'get_widget',
      'list_widgets',
      'update_widget',
    ]);
    expect(widgets.mode).toBe('all');
    // `*` is any text: the resource and those under it (`browsers.logs`); nothing else matches.
    const browsers = chooseTools(large, { resources: ['browsers*'] }).tools;
    expect(browsers.length).toBeGreaterThan(0);
    expect(browsers.map(resourceOf).every((resource) => resource.startsWith('browsers'))).toBe(true);
    expect(chooseTools(large, { resources: ['*s'] }).tools).toEqual(large.filter((t) => resourceOf(t).endsWith('s')));
    // Repeated, the resources add up.
    expect(chooseTools(large, { resources: ['widgets', 'folders'] }).tools).toHaveLength(10);
  });

  it('--operation keeps the tools that read (GET) or write, of the whole set or of what --resource selects', () => {
    const reads = chooseTools(large, { operations: ['read'] }).tools;
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    const writes = chooseTools(large, { operations: ['write'] }).tools;
    expect(reads.length + writes.length).toBe(large.length);
    expect(writes.map(operationKindOf)).not.toContain('read');
    expect(names(chooseTools(large, { resources: ['widgets'], operations: ['read'] }).tools)).toEqual([
      'get_widget',
      'list_widgets',
    ]);
    expect(chooseTools(large, { operations: ['read', 'write'] }).tools).toEqual(large);
  });

  it('--tool adds tools by name or pattern, beside those of --resource', () => {
    // Folders, not gadgets: an API workflow draw may have given the document a gadgets resource of its own.
    expect(names(chooseTools(large, { tools: ['get_widget'], resources: ['folders'] }).tools)).toEqual([
      'create_folder',
      'delete_folder',
      'get_folder',
      'get_widget',
      'list_folders',
      'update_folder',
    ]);
    expect(names(chooseTools(large, { tools: ['delete_*'] }).tools).every((name) => name.startsWith('delete_'))).toBe(
      true,
    );
  });

  it('refuses a name that matches nothing, naming the option and what there is, and a choice that leaves no tool', () => {
    const resources = [...new Set(small.map(resourceOf))].join(', ');
    expect(refusal(() => chooseTools(small, { resources: ['widgets'] }))).toBe(
      `--resource=widgets matches no resource; the resources: ${resources}`,
    );
    expect(refusal(() => chooseTools(small, { tools: ['get_widget'] }))).toBe(
      `--tool=get_widget matches no tool; the tools: ${small.map((tool) => tool.name).join(', ')}`,
    );
    expect(refusal(() => chooseTools(small, { tools: [''] }))).toMatch(/^--tool= matches no tool; the tools: /);
    // Each name selects something, together nothing.
    const readOnly = small.find((tool) => operationKindOf(tool) === 'write')!;
    expect(refusal(() => chooseTools([readOnly], { resources: [resourceOf(readOnly)], operations: ['read'] }))).toBe(
      `--resource=${resourceOf(readOnly)} --operation=read leave no tool of the 1`,
    );
  });
});

describe('matches', () => {
  it('takes * for any text and everything else as itself', () => {
    expect(matches('auth.*', 'auth.connections')).toBe(true);
    expect(matches('auth.*', 'authXconnections')).toBe(false);
    expect(matches('a+b', 'a+b')).toBe(true);
    expect(matches('a+b', 'aab')).toBe(false);
    expect(matches('*', '')).toBe(true);
    expect(matches('profiles', 'profiles.x')).toBe(false);
  });
});
