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
 * the document's BrowserTelemetryRequestConfig. The result lists categories in the document's
 * order ({@link TELEMETRY_CATEGORIES}); an empty list means no capture.
 *
 * The config is first checked against the document's schema, so `enabled: false` combined with
 * `browser` settings, an unknown category or an unknown property throws an
 * {@link InvalidTelemetryConfigError} (fields named `browser_telemetry…`).
 *
 * | config | create | update (`current` active) | update (`current: null`) |
 * |---|---|---|---|
 * | `null` / `undefined` | `[]` | `current`, unchanged | `[]` |
 * | `{ enabled: false }` | `[]` | `[]` | `[]` |
 * | `{ enabled: true, browser? }` | default set + `browser` | default set + `browser` | default set + `browser` |
 * | `{ browser? }` (`enabled` omitted) | default set + `browser` | `current` + `browser` | default set + `browser` |
 *
 * "+ `browser`" means: each category given with `enabled: true` is added, each given with
 * `enabled: false` is removed, the others stay as they were (rules 1, 2 and 4). A category given
 * without `enabled` (`{ console: {} }`) is one of the others: at its default on create (and
 * whenever the base is the default set), unchanged on update.
 *
 * Choices where the seed is silent or ambiguous:
 * - `null`/`undefined` is "no telemetry configuration": on create nothing is captured (to get
 *   a connection's default, pass that default as `config`); on update nothing changes.
 * - `enabled` omitted on create behaves like `enabled: true` (rules 4 and 5).
 * - On update, `current: []` counts as "no telemetry active", like `null`: a selection that
 *   captures nothing is stopped telemetry (rules 3 and 6), so a later update with `enabled`
 *   omitted starts again from the default set (rule 4).
 * - An update with `{}` or `{ browser: {} }` and active telemetry keeps `current` unchanged:
 *   rule 2 (merge what is provided onto the current selection) wins over rule 5, which is read
 *   as naming the base a configuration starts from when there is nothing to merge onto.
 * - Rule 6 needs no special case: a `browser` configuration that disables every category
 *   resolves to `[]` by the layering above, on create and on update alike.
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
