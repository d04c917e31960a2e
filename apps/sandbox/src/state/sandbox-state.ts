import type { SandboxFixture } from '../fixture/fixture-schema.js';
import type { FlowTypes } from '../openapi/flow-types.js';
import { SandboxStore } from './store.js';

/** The knobs of a running sandbox. */
export interface SandboxSettings {
  /** Lifetime of a login flow, in ms. */
  flowTtlMs: number;
  /** Interval of the log stream's comment keep-alives, in ms. */
  keepAliveMs: number;
  /** The `retry:` hint sent at the start of every log stream, in ms. */
  retryMs: number;
  /** The clock; tests may replace it. */
  now: () => number;
  /** The sandbox's own base URL, for `hosted_url` and `live_view_url`. */
  publicUrl: () => string;
  /** The document's flow types, which logins answer with. */
  flowTypes: FlowTypes;
}

/** The current store, and the fixture it can be reset to. */
export class SandboxState {
  #store: SandboxStore;

  constructor(
    readonly fixture: SandboxFixture,
    readonly settings: SandboxSettings,
  ) {
    this.#store = new SandboxStore(fixture, settings.now());
  }

  get store(): SandboxStore {
    return this.#store;
  }

  /** Back to the fixture: flows, renames and appended lines are gone; open streams end. */
  reset(): void {
    this.#store.dispose();
    this.#store = new SandboxStore(this.fixture, this.settings.now());
  }

  /** Ends every open stream. */
  dispose(): void {
    this.#store.dispose();
  }
}
