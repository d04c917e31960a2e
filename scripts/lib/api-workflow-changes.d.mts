// The types of api-workflow-changes.mjs, for the TypeScript tests that use it.
export function seeded(seed: number): () => number;
export const EDIT_KINDS: string[];
export function applyEdit(text: string, kind: string, random: () => number): { text: string; done: string } | undefined;
export function drawChanges(
  text: string,
  seed: number,
  count: number,
): { text: string; changes: Array<{ kind: string; done: string }>; added: string[] };
export function withVersion(text: string, version: string): string;
export function isGeneratedOrDocument(path: string): boolean;
export function withCrudOperations(text: string, count: number): string;
