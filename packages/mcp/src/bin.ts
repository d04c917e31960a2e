#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { runCommandLine } from './command-line.js';
import { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
import type { ToolDefinition } from './tool-definition.js';

// This bin's absolute path (what a host runs, as --help shows it), serving the document's tools.
await runCommandLine(Object.values(TOOL_DEFINITIONS) as ToolDefinition[], fileURLToPath(import.meta.url));
