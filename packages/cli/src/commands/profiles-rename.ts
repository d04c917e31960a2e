import { type CliIo, writeOut } from '../cli-io.js';
import { withClient } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import { forTerminal, jsonForTerminal } from '../terminal-text.js';

/** `browser-cloud profiles rename <id-or-name> <new-name>`. */
export function renameProfile(io: CliIo, idOrName: string, name: string, options: { json?: boolean }): Promise<number> {
  const json = options.json === true;
  return withClient(io, { json }, async (client) => {
    const profile = await client.profiles.rename(idOrName, { name }, { signal: io.interrupt });
    await writeOut(
      io.stdout,
      json
        ? `${jsonForTerminal(profile)}\n`
        : forTerminal(`Renamed profile ${profile.id} to ${jsonForTerminal(profile.name)}.\n`, { lines: true }),
    );
    return EXIT.ok;
  });
}
