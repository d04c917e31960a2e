export type ChangeClass = 'breaking-clients' | 'breaking-servers' | 'additive' | 'documentation';
export const CHANGE_CLASSES: readonly ChangeClass[];
export const CLASS_TITLES: Record<ChangeClass, string>;

export interface ClassifiedChange {
  changeClass: ChangeClass;
  side: 'request' | 'response' | 'operation' | 'document';
  operation: string | null;
  path: string;
  kind: 'added' | 'removed' | 'modified';
  impact: 'major' | 'minor' | 'patch';
  message: string;
  location: { file: string; line: number; pointer: string } | null;
  /** Equal for the same change in another diff from the same release. */
  key: string;
  /** Set by the gate when it knows the committed document: the change was committed before. */
  pending?: boolean;
}

export interface DiffReport {
  infoVersions: { base: string; revision: string };
  changes: any[];
}

export function releasedSnapshots(dir: string): { version: string; path: string }[];
export function diffDocuments(
  base: string,
  revision: string,
  options?: { cwd?: string },
): { report: DiffReport; documents: { base: object; revision: object } };
export function classifyChanges(report: DiffReport, documents?: { base: object; revision: object }): ClassifiedChange[];
export function versionForBreakingChange(released: string): string;
export function versionFor(changeClass: ChangeClass, released: string): string;
export function nextVersion(released: string, changes: readonly { changeClass: ChangeClass }[]): string;
export function bumpReasons(released: string, changes: readonly { changeClass: ChangeClass }[]): string;
export function formatChange(change: ClassifiedChange, options?: { markdown?: boolean }): string;
export function committedDocument(cwd: string, document: string): string | null;
export function checkApiChanges(options: {
  document: string;
  releasesDir: string;
  cwd?: string;
  committed?: string | null;
}): {
  ok: boolean;
  changes?: ClassifiedChange[];
  text: string;
};
