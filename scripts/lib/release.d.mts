export class ReleaseError extends Error {}
export function release(options: { root: string; date?: string; lockFile?: boolean }): {
  released: boolean;
  version: string;
  text: string;
};
