export function preflight(options: {
  baseUrl: string;
  token: string;
  browserId?: string | undefined;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Promise<{ ok: true; status: number } | { ok: false; message: string }>;
