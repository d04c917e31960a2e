// A consumer outside the monorepo: it knows the packages only as installed from their tarballs.
import { DOCUMENT_VERSION } from '@browser-cloud/api-types';
import { ConflictError, createClient, type LoginResponse, type Profile } from '@browser-cloud/client';
import { createRawClient } from '@browser-cloud/client/raw';

const [baseUrl, token, profileId, otherProfileId, connectionId, browserId, logPath] = process.argv.slice(2);
if (!baseUrl || !token || !profileId || !otherProfileId || !connectionId || !browserId || !logPath) {
  throw new Error('usage: node main.js BASE_URL TOKEN PROFILE OTHER_PROFILE CONNECTION BROWSER LOG_PATH');
}

const client = createClient({ baseUrl, token });
const flow: LoginResponse = await client.auth.connections.login(connectionId);
const profile: Profile = await client.profiles.rename(profileId, { name: 'installed-consumer' });

let conflict: string | null = null;
try {
  await client.profiles.rename(otherProfileId, { name: 'installed-consumer' });
} catch (error) {
  if (!(error instanceof ConflictError)) throw error;
  conflict = error.name;
}

const messages: string[] = [];
for await (const event of client.browsers.logs.stream(browserId, { source: 'path', path: logPath })) {
  messages.push(event.message);
}

// The openapi-fetch style, from its own subpath.
const raw = await createRawClient(client).PATCH('/profiles/{id_or_name}', {
  params: { path: { id_or_name: profileId } },
  body: { name: 'installed-raw' },
});

console.log(
  JSON.stringify({
    documentVersion: DOCUMENT_VERSION,
    flowType: flow.flow_type,
    name: profile.name,
    conflict,
    messages,
    raw: raw.data?.name ?? null,
  }),
);
