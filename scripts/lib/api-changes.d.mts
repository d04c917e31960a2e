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
): { report: DiffReport; versionBumpedEnough: boolean; versionVerdict: string | null };
export function classifyChanges(report: DiffReport): ClassifiedChange[];
export function versionForBreakingChange(released: string): string;
export function formatChange(change: ClassifiedChange, options?: { markdown?: boolean }): string;
export function checkApiChanges(options: { document: string; releasesDir: string; cwd?: string }): {
  ok: boolean;
  changes?: ClassifiedChange[];
  text: string;
};
