// Checks the token once, before any case runs: with a refused token every case would fail on its
// own 401 ("expected 401 to be 400" fourteen times) instead of saying what is wrong once.
import { loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';

/**
 * Whether the target accepts the token, from one harmless request (README); the message never holds it.
 * @param {{ baseUrl: string, token: string, document?: any, fetch?: typeof fetch }} options
 * @returns {Promise<{ ok: true, status: number | undefined } | { ok: false, message: string }>}
 */
export async function preflight({ baseUrl, token, document = loadOpenApiDocument(), fetch = globalThis.fetch }) {
  const operation = [...operations(document)].find((o) => o.method === 'get' && o.secured);
  if (!operation) return { ok: true, status: undefined };
  const example = (p) => (p?.parameter.example === undefined ? 'contract-preflight' : String(p.parameter.example));
  const inPath = (name) => operation.parameters.find((p) => p.in === 'path' && p.name === name);
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(example(inPath(name))));
  const query = new URLSearchParams((operation.query?.parameters ?? []).map((p) => [p.name, example(p)]));
  const headers = { Authorization: `Bearer ${token}`, Accept: operation.success?.mediaType ?? '*/*' };
  const fail = (why) => ({ ok: false, message: `preflight: ${baseUrl} ${why}; no case was run` });
  try {
    const url = `${baseUrl}${path}${query.size > 0 ? `?${query}` : ''}`;
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel().catch(() => {});
    if (response.status === 401) return fail('refused API_TOKEN (401 Unauthorized); check the token');
    return { ok: true, status: response.status };
  } catch (error) {
    return fail(`cannot be reached (${error?.cause?.message || error?.message || 'no answer'})`);
  }
}
