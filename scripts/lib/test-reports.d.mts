export function vitestReporters(dir: string): (string | [string, Record<string, unknown>])[];
export interface FailingTest {
  package: string;
  file: string;
  line: number | null;
  name: string | null;
  error: string;
}
export function failingTests(dirs: string[], since?: number): FailingTest[];
export function formatFailures(failures: FailingTest[]): string;
