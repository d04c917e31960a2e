import { CATEGORY_DEFAULTS } from '../generated/telemetry-categories.js';
import type { TelemetryCategory } from '../index.js';

/**
 * Whether each category is captured by default, in the document's order (generated from its
 * `x-default-enabled`). `satisfies` makes the compiler reject a missing or an extra key whenever
 * the generated `TelemetryCategory` changes.
 */
const DEFAULT_ON = CATEGORY_DEFAULTS satisfies Record<TelemetryCategory, boolean>;

/** The telemetry categories, in the order of the document's BrowserTelemetryCategoriesConfig. */
export const TELEMETRY_CATEGORIES: readonly TelemetryCategory[] = Object.freeze(
  Object.keys(DEFAULT_ON) as TelemetryCategory[],
);

/** The default set: the categories captured by default (today the operational, opt-out ones). */
export const DEFAULT_TELEMETRY_CATEGORIES: readonly TelemetryCategory[] = Object.freeze(
  TELEMETRY_CATEGORIES.filter((category) => DEFAULT_ON[category]),
);
