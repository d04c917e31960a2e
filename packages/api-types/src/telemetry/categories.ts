import type { TelemetryCategory } from '../index.js';

/**
 * Whether each category is captured by default, in the document's order. `satisfies` makes the
 * compiler reject a missing or an extra key whenever the generated `TelemetryCategory` changes.
 */
const DEFAULT_ON = {
  control: true,
  connection: true,
  system: true,
  captcha: true,
  console: false,
  page: false,
  interaction: false,
  network: false,
  screenshot: false,
} as const satisfies Record<TelemetryCategory, boolean>;

/** The nine telemetry categories, in the order of the document's BrowserTelemetryCategoriesConfig. */
export const TELEMETRY_CATEGORIES: readonly TelemetryCategory[] = Object.freeze(
  Object.keys(DEFAULT_ON) as TelemetryCategory[],
);

/** The default set: control, connection, system, captcha (the operational, opt-out categories). */
export const DEFAULT_TELEMETRY_CATEGORIES: readonly TelemetryCategory[] = Object.freeze(
  TELEMETRY_CATEGORIES.filter((category) => DEFAULT_ON[category]),
);
