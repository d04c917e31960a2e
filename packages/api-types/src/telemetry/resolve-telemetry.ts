import type { BrowserTelemetryRequestConfig } from '../generated/openapi.js';
import { validateBrowserTelemetryRequestConfig } from '../generated/validators/index.js';
import type { TelemetryCategory } from '../index.js';
import { toIssues, type ValidationIssue } from '../validation-issues.js';
import { DEFAULT_TELEMETRY_CATEGORIES, TELEMETRY_CATEGORIES } from './categories.js';

/**
 * A telemetry configuration that breaks the document's BrowserTelemetryRequestConfig schema.
 * `field` and `rule` are those of the first issue (fields named `browser_telemetry…`); the
 * message lists every issue. The client turns it into its `ValidationError`; a server answers
 * 400 with it.
 */
export class InvalidTelemetryConfigError extends Error {
  readonly field: string;
  readonly rule: string;
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[]) {
    super(issues.map((issue) => issue.message).join('; ') || 'invalid browser telemetry configuration');
    this.name = 'InvalidTelemetryConfigError';
    this.field = issues[0]?.field ?? 'browser_telemetry';
    this.rule = issues[0]?.rule ?? 'unknown';
    this.issues = issues;
  }
}

/** Whether the configuration starts a session's telemetry or changes a running one. */
export type TelemetryContext =
  | { readonly mode: 'create' }
  | {
      readonly mode: 'update';
      /** The session's current selection, or `null` (or `[]`) when no telemetry is active. */
      readonly current: readonly TelemetryCategory[] | null;
    };

/**
 * The telemetry categories a BrowserTelemetryRequestConfig captures, following rules 1 to 6 of
 * the document's BrowserTelemetryRequestConfig, in the document's order
 * ({@link TELEMETRY_CATEGORIES}); an empty list means no capture. The config is first checked
 * against the schema: `enabled: false` with `browser` settings, an unknown category or property
 * throws an {@link InvalidTelemetryConfigError} (fields named `browser_telemetry…`).
 *
 * `enabled: false` captures nothing. Otherwise the base is the default set (on create, with
 * `enabled: true`, or with no active telemetry) or `current` (on update with `enabled` omitted),
 * and each category of `browser` given `enabled: true` is added, `enabled: false` removed; one
 * given without `enabled` stays as the base has it (rules 1, 2 and 4). Where the seed is silent:
 * `null`/`undefined` is no configuration (nothing on create, no change on update); on update
 * `current: []` is no active telemetry, like `null` (rules 3, 4 and 6); an update with `{}` or
 * `{ browser: {} }` keeps `current` (rule 2 over rule 5). Rule 6 follows from the layering.
 */
export function resolveTelemetry(
  config: BrowserTelemetryRequestConfig | null | undefined,
  context: TelemetryContext,
): TelemetryCategory[] {
  const current = context.mode === 'update' ? context.current : null;
  if (config === null || config === undefined) return ordered(current ?? []);
  if (!validateBrowserTelemetryRequestConfig(config)) {
    throw new InvalidTelemetryConfigError(
      toIssues(validateBrowserTelemetryRequestConfig.errors ?? [], config, 'browser_telemetry'),
    );
  }
  if (config.enabled === false) return [];
  // An empty selection captures nothing: no telemetry is active, so rule 4's fallback applies.
  const active = current !== null && current.length > 0;
  const base = config.enabled === undefined && active ? current : DEFAULT_TELEMETRY_CATEGORIES;
  const selected = new Set<TelemetryCategory>(base);
  for (const category of TELEMETRY_CATEGORIES) {
    // A category without `enabled` stays as the base has it: its default, or unchanged.
    const enabled = config.browser?.[category]?.enabled;
    if (enabled === true) selected.add(category);
    else if (enabled === false) selected.delete(category);
  }
  return ordered(selected);
}

function ordered(categories: Iterable<TelemetryCategory>): TelemetryCategory[] {
  const set = new Set(categories);
  return TELEMETRY_CATEGORIES.filter((category) => set.has(category));
}
