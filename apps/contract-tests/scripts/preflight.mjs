// Checks the token once, before any case runs: with a refused token every case would fail on its
// own 401 ("expected 401 to be 400" fourteen times) instead of saying what is wrong once.
import { loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';

/**
 * Sends one harmless request (the document's first secured GET, with its parameters' examples,
 * cancelled at the headers) and reports whether the target accepts the token. Never returns the
 * token in its message.
 *
 * @param {{ baseUrl: string, token: string, document?: any, fetch?: typeof fetch, timeoutMs?: number }} options
 * @returns {Promise<{ ok: true, status: number | undefined } | { ok: false, message: string }>}
 */
export async function preflight({
  baseUrl,
  token,
  document = loadOpenApiDocument(),
  fetch: fetchImpl = fetch,
  timeoutMs = 10_000,
}) {
  const operation = [...operations(document)].find((o) => o.method === 'get' && o.secured);
  if (!operation) return { ok: true, status: undefined };
  const example = (p) => (p?.parameter.example === undefined ? 'contract-preflight' : String(p.parameter.example));
  const inPath = (name) => operation.parameters.find((p) => p.in === 'path' && p.name === name);
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(example(inPath(name))));
  const query = new URLSearchParams((operation.query?.parameters ?? []).map((p) => [p.name, example(p)]));
  let response;
  try {
    response = await fetchImpl(`${baseUrl}${path}${query.size > 0 ? `?${query}` : ''}`, {
      headers: { Authorization: `Bearer ${token}`, Accept: operation.success?.mediaType ?? '*/*' },
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
