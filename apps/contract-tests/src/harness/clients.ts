import { createClient } from '@browser-cloud/client';
import { observedFetch } from './observed-fetch.js';
import { target } from './target.js';

/** The client as an agent developer builds it, over the observing fetch; no retries, so each case sees one response. */
export const client = createClient({
  baseUrl: target.baseUrl,
  token: target.token,
  fetch: observedFetch,
  maxRetries: 0,
});

/** A client whose token the service does not know. */
export const clientWithToken = (token: string) =>
  createClient({ baseUrl: target.baseUrl, token, fetch: observedFetch, maxRetries: 0 });

/** Prism picks the response status from this header. */
export const prefer = (status: number) => ({ headers: { Prefer: `code=${status}` } });

/**
 * A request sent past the client, as a raw HTTP call, to see what the server itself does with
 * input the client would refuse.
 */
export async function raw(
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string>; token?: string | null } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== null) headers.Authorization = `Bearer ${init.token ?? target.token}`;
  if (init.body !== undefined) headers['Content-Type'] ??= 'application/json';
  const response = await observedFetch(`${target.directUrl}${path}`, { method, headers, body: init.body ?? null });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body, headers: response.headers };
}

/**
 * Puts the name of the profile the suite renames (CONTRACT_PROFILE_ID) back to
 * CONTRACT_PROFILE_NAME. The document has no operation that reads a profile, so without that
 * variable the suite cannot know the name, and says so.
 */
export async function restoreProfileName(): Promise<void> {
  const { profileId, profileName } = target.resources;
  if (target.mode === 'mock' || !profileId) return;
  if (!profileName) {
    console.info(
      '[contract] renameProfile: CONTRACT_PROFILE_NAME is not set, so the renamed profile keeps its new name',
    );
    return;
  }
  await client.profiles.rename(profileId, { name: profileName });
}
