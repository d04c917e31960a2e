import type { ClassifiedChange } from './api-changes.mjs';

export class ReleaseError extends Error {}
export function changelogEntry(options: {
  version: string;
  previous: string;
  date: string;
  changes: ClassifiedChange[];
  notes?: string;
}): string;
export function release(options: { root: string; date?: string; lockFile?: boolean }): {
  released: boolean;
  version: string;
  text: string;
};
