export const EDIT_KINDS: readonly string[];
export function seeded(seed: number): () => number;
export function applyEdit(text: string, kind: string, random: () => number): { text: string; done: string } | undefined;
export function drawChanges(
  text: string,
  seed: number,
  count: number,
): { text: string; changes: { kind: string; done: string }[] };
export function withVersion(text: string, version: string): string;
export function isGeneratedOrDocument(path: string): boolean;
