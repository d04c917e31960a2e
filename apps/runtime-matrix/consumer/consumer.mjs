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

/** What `promise` rejects with, or null when it resolves. */
const caught = (promise) => promise.then(() => null).catch((error) => error);

/** @param {{ baseUrl: string, refs: any, name: string }} input the sandbox's URL, its fixture's ids (`DEFAULT_FIXTURE_REFS`), a new name */
export async function run({ baseUrl, refs, name }) {
  const token = refs.tokens.owner;
  const { unnamed, defaultProject } = refs.profiles;
  const { main, quiet } = refs.browsers;
  let requests = 0;
  let streamOpened;
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
  const client = createClient({ baseUrl, token, fetch });

  // 1. Login: a fresh connection starts a LOGIN flow.
  const flow = await client.auth.connections.login(refs.authConnections.withoutCredentials);

  // 2. Rename, then the same name for another profile of the project: a typed 409.
  const profile = await client.profiles.rename(unnamed.id, { name });
  const conflict = await caught(client.profiles.rename(defaultProject.id, { name }));

  // 3. The log stream read to its end, then resumed after its first event with Last-Event-ID,
  //    through the standalone function on a connection of its own.
  const query = { source: 'path', path: main.path };
  const read = [];
  const stream = client.browsers.logs.stream(main.id, query);
  for await (const event of stream) read.push({ id: stream.lastEventId, message: event.message });
  const connection = createConnection({ baseUrl, token, fetch });
  const resumed = [];
  const again = streamBrowserLogs(connection, main.id, query, { lastEventId: read[0]?.id ?? '' });
  for await (const event of again) resumed.push({ id: again.lastEventId, message: event.message });

  // 4. Bad input is refused before any request.
  const before = requests;
  const validation = await caught(renameProfile(connection, unnamed.id, { name: '' }));
  const requestsSent = requests - before;

  // 5. Aborts: a call whose signal is already aborted, and a followed stream aborted while open.
  const signal = AbortSignal.abort();
  const abortedCall = await caught(client.profiles.rename(unnamed.id, { name: `${name}-2` }, { signal }));
  const controller = new AbortController();
  const follow = { source: 'path', path: quiet.path, follow: true };
  const pending = client.browsers.logs.stream(quiet.id, follow, { signal: controller.signal }).next();
  await opened;
  controller.abort();

  return {
    flowType: flow.flow_type,
    renamed: profile.name,
    conflict:
      conflict instanceof ConflictError
        ? { name: conflict.name, status: conflict.status, code: conflict.code, requestId: Boolean(conflict.requestId) }
        : String(conflict),
    read,
    resumed,
    validation:
      validation instanceof ValidationError
        ? { name: validation.name, field: validation.field, rule: validation.rule, requestsSent }
        : String(validation),
    abortedCall: abortedCall instanceof APIUserAbortError ? abortedCall.name : String(abortedCall),
    abortedStream: (await pending).done === true ? 'ended' : 'yielded',
  };
}
