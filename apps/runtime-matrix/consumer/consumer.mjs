// The one consumer program of the runtime matrix. It imports only `@browser-cloud/client` as
// installed from its tarball and only web-standard globals (fetch, AbortController, URL), so the
// same file runs in Node, Bun and Deno, as a Cloudflare Worker and as an ES module page. It
// returns what it saw; the matrix compares that with what the sandbox's fixture implies.
import {
  APIUserAbortError,
  ConflictError,
  createClient,
  createConnection,
  renameProfile,
  streamBrowserLogs,
  ValidationError,
} from '@browser-cloud/client';

/**
 * @param {{ baseUrl: string, token: string, connectionId: string, profileId: string,
 *   otherProfileId: string, browserId: string, logPath: string, quietBrowserId: string,
 *   quietLogPath: string, name: string }} input the sandbox's address and the fixture's ids
 */
export async function run(input) {
  let requests = 0;
  /** @type {() => void} */
  let streamOpened = () => {};
  const opened = new Promise((resolve) => {
    streamOpened = resolve;
  });
  // Counts what reaches the network, and tells when the followed stream's answer has come.
  const fetch = async (request) => {
    requests++;
    const response = await globalThis.fetch(request);
    if (new URL(request.url).searchParams.get('follow') === 'true') streamOpened();
    return response;
  };
  const client = createClient({ baseUrl: input.baseUrl, token: input.token, fetch });

  // 1. Login: a fresh connection starts a LOGIN flow.
  const flow = await client.auth.connections.login(input.connectionId);

  // 2. Rename, then the same name for another profile of the project: a typed 409.
  const profile = await client.profiles.rename(input.profileId, { name: input.name });
  let conflict = null;
  try {
    await client.profiles.rename(input.otherProfileId, { name: input.name });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    conflict = { name: error.name, status: error.status, code: error.code, requestId: Boolean(error.requestId) };
  }

  // 3. The log stream read to its end, then resumed after its first event with Last-Event-ID,
  //    through the standalone function on a connection of its own.
  const query = { source: 'path', path: input.logPath };
  const read = [];
  const stream = client.browsers.logs.stream(input.browserId, query);
  for await (const event of stream) read.push({ id: stream.lastEventId, message: event.message });
  const connection = createConnection({ baseUrl: input.baseUrl, token: input.token, fetch });
  const resumed = [];
  const again = streamBrowserLogs(connection, input.browserId, query, { lastEventId: read[0]?.id ?? '' });
  for await (const event of again) resumed.push({ id: again.lastEventId, message: event.message });

  // 4. Bad input is refused before any request.
  const before = requests;
  let validation = null;
  try {
    await renameProfile(connection, input.profileId, { name: '' });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    validation = { name: error.name, field: error.field, rule: error.rule, requestsSent: requests - before };
  }

  // 5. Aborts: a call whose signal is already aborted, and a followed stream aborted while open.
  let abortedCall = null;
  try {
    await client.profiles.rename(input.profileId, { name: `${input.name}-2` }, { signal: AbortSignal.abort() });
  } catch (error) {
    if (!(error instanceof APIUserAbortError)) throw error;
    abortedCall = error.name;
  }
  const controller = new AbortController();
  const followed = client.browsers.logs.stream(
    input.quietBrowserId,
    { source: 'path', path: input.quietLogPath, follow: true },
    { signal: controller.signal },
  );
  const pending = followed.next();
  await opened;
  controller.abort();
  const afterAbort = await pending;

  return {
    flowType: flow.flow_type,
    renamed: profile.name,
    conflict,
    read,
    resumed,
    validation,
    abortedCall,
    abortedStream: afterAbort.done === true ? 'ended' : 'yielded',
  };
}
