/**
 * Why the mock could not start, in one line a person can act on (the CLI prints `message`
 * alone, without a stack). `output` keeps what Prism printed, for whoever needs the detail.
 */
export class MockStartError extends Error {
  override readonly name = 'MockStartError';
  readonly reason: 'prism-missing' | 'port-in-use' | 'not-prism' | 'prism-exited' | 'timeout';
  readonly output: string;

  constructor(reason: MockStartError['reason'], message: string, output = '') {
    super(message);
    this.reason = reason;
    this.output = output;
  }
}
