// A consumer outside the monorepo: it knows the packages only as installed from their tarballs.
import { DOCUMENT_VERSION } from '@browser-cloud/api-types';
import { ConflictError, createClient, type LoginResponse, type Profile } from '@browser-cloud/client';

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

console.log(
  JSON.stringify({
    documentVersion: DOCUMENT_VERSION,
    flowType: flow.flow_type,
    name: profile.name,
    conflict,
    messages,
  }),
);
