// Checks the token once, before any case runs: with a refused token every case would fail on its
// own 401 ("expected 401 to be 400" fourteen times) instead of saying what is wrong once.

/**
 * Sends one harmless request (a log stream read that is cancelled at the headers) and reports
 * whether the target accepts the token. Never returns the token in its message.
 *
 * @param {{ baseUrl: string, token: string, browserId?: string | undefined, fetch?: typeof fetch, timeoutMs?: number }} options
 * @returns {Promise<{ ok: true, status: number } | { ok: false, message: string }>}
 */
export async function preflight({ baseUrl, token, browserId, fetch: fetchImpl = fetch, timeoutMs = 10_000 }) {
  const url = `${baseUrl}/browsers/${encodeURIComponent(browserId ?? 'contract-preflight')}/logs/stream?source=path&path=%2Fcontract-preflight`;
  let response;
  try {
    response = await fetchImpl(url, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
    return {
      ok: false,
      message: `preflight: ${baseUrl} cannot be reached (${reason || 'no answer'}); no case was run`,
    };
  }
  await response.body?.cancel().catch(() => {});
  if (response.status === 401) {
    return {
      ok: false,
      message: `preflight: ${baseUrl} refused API_TOKEN (401 Unauthorized); check the token; no case was run`,
    };
  }
  return { ok: true, status: response.status };
}
