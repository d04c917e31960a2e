export function freePort(): Promise<number>;
export function startPrism(options?: {
  port?: number;
  host?: string;
  upstream?: string;
  quiet?: boolean;
  readyTimeoutMs?: number;
}): Promise<{
  url: string;
  stop(): Promise<void>;
  exited: Promise<{ code: number | null; signal: string | null }>;
  output(): string;
}>;
