import type { SkipKind } from './skips.mjs';

export interface CaseReport {
  file: string;
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  time?: number;
  message?: string;
  skip?: { operation: string; reason: string; kind: SkipKind; variables: string[] };
}
export interface SkipReport {
  case: string;
  failed: boolean;
  operation: string;
  reason: string;
  kind: SkipKind;
  variables: string[];
}
export interface ReportAnalysis {
  operations: Record<string, { run: number; passed: number; failed: number; skipped: number }>;
  cases: CaseReport[];
  skips: SkipReport[];
  unset: Record<string, string[]>;
}
export function analyseReport(
  report: unknown,
  options: { mode: string; requireAll: boolean; root?: string },
): ReportAnalysis;
export function summaryLines(analysis: Pick<ReportAnalysis, 'operations' | 'skips' | 'unset'>): string[];
export function junitXml(cases: CaseReport[], suiteName?: string): string;
