export const MOCK_ONLY: string;
export const STATEFUL_ONLY: string;
export type SkipKind = 'mock-only' | 'stateful-only' | 'unset-variable' | 'target-state' | 'unexplained';
export function skipTitle(title: string, reason: string): string;
export function skipOf(assertion: { ancestorTitles?: string[]; title: string; meta?: { skipReason?: string } }): {
  reason: string;
  kind: SkipKind;
  variables: string[];
};
export function exemptFromRequireAll(kind: SkipKind, mode: string): boolean;
