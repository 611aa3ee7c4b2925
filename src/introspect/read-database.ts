// Reading the cluster a command names (--database, DATABASE_URL, PG*): the live state, and the
// manifest loaded while the catalog query runs. The command loads this module, the connection and
// the catalog query first; the rest (the answer's validation and model, the manifest's parser and
// schema) loads while the server works on the query.
import { connectionTarget, withClient, type Env } from '../db/connect.js';
import type { LoadedManifest } from '../manifest/load.js';
import { queryCatalog } from './catalog-query.js';
import type { ShardState } from './read-shards.js';
import type { LiveState } from '../model/live-state.js';

/** Connects and reads the live state. */
export async function readDatabase(
  database: string | undefined,
  env: Env,
  signal?: AbortSignal,
  onSent?: () => void,
): Promise<LiveState & { roundTrips: number }> {
  const target = connectionTarget(database, env);
  return withClient(
    target,
    async (c) => {
      const answer = queryCatalog(c, onSent);
      answer.catch(() => undefined); // awaited by liveStateFrom, once read.ts has loaded
      return (await import('./read.js')).liveStateFrom(c, answer);
    },
    signal,
  );
}

/**
 * Loads the manifest while the cluster answers the catalog query: connects and sends the query
 * first (parsing the manifest holds the event loop, so the handshake must be over by then), so
 * the server's time and the manifest's parsing overlap. A manifest error still comes first, as if
 * the manifest had been loaded before the database was asked anything (the read only reads), and
 * closes the connection. `onSent` is called once the query is on its way (or a second has passed):
 * the time to start loading what the command needs after the read.
 */
export async function loadAndRead(
  file: string,
  database: string | undefined,
  io: { readonly env: Env; readonly cwd: string },
  onSent?: () => void,
): Promise<{ m: LoadedManifest; live: LiveState & { roundTrips: number } }> {
  const stop = new AbortController();
  let sent: () => void = () => undefined;
  const querySent = new Promise<void>((resolve) => {
    sent = resolve;
  });
  const reading = readDatabase(database, io.env, stop.signal, () => sent());
  reading.catch(() => undefined); // awaited below, after the manifest; never unhandled
  // Not longer than a second: a slow or unreachable server must not delay a manifest error.
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 1000);
  });
  await Promise.race([
    querySent,
    reading.then(
      () => undefined,
      () => undefined,
    ),
    giveUp,
  ]);
  clearTimeout(timer);
  onSent?.();
  try {
    const { loadManifest } = await import('../manifest/load.js');
    const m = await loadManifest(file, undefined, io.cwd);
    return { m, live: await reading };
  } finally {
    stop.abort(); // a manifest error: the connection is not left to finish the read
  }
}

/** `--shards`: reads every shard placement on its node (read-shards.ts), on a connection of its own. */
export async function readShards(database: string | undefined, env: Env): Promise<ShardState> {
  const { readShardState } = await import('./read-shards.js');
  return withClient(connectionTarget(database, env), (c) => readShardState(c));
}
