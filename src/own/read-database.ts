// Reading the cluster a command names (--database, DATABASE_URL, PG*): the live state, and the
// manifest loaded while the catalog query runs. The command loads this module, the connection and
// the catalog query first; the rest (the answer's validation and model, the manifest's parser and
// schema) loads while the server works on the query.
import type { TableSizes } from '../plan/lock-estimate.js';
import { nodeFsWith } from '../manifest/project-io.js';
import type { PlanDocument } from '../plan/plan.js';
import { connectionTarget, withClient, type Env } from '../db/connect.js';
import type { LoadedManifest } from '../manifest/load.js';
import { fallbackGraceMs, queryCatalog, sentSignal } from '../introspect/catalog-query.js';
import { latch } from '../util/latch.js';
import type { ShardState } from '../introspect/read-shards.js';
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
      const signal = sentSignal(onSent);
      const answer = queryCatalog(c, signal.onSent, { graceMs: fallbackGraceMs(env) });
      answer.catch(() => undefined); // awaited by liveStateFrom, once read.ts has loaded
      const [{ liveStateFrom }, { readObjectState }] = await Promise.all([
        import('../introspect/read.js'),
        import('./object-state.js'),
      ]);
      return liveStateFrom(c, answer, readObjectState, signal.sent);
    },
    signal,
  );
}

/** A catalog read under way (startRead's): the live state to come, and how to stop it. */
export interface PendingRead {
  /** The --database it reads (undefined: DATABASE_URL or the PG* variables). */
  readonly database: string | undefined;
  readonly live: Promise<LiveState & { roundTrips: number }>;
  /** Settles once the catalog query is on its way, or the read has ended. */
  readonly sent: Promise<void>;
  /** Closes the connection if the read is still going (a manifest error; a command that ended first). */
  stop(): void;
}

/** Connects and sends the catalog query now; the answer's validation loads while the server works. */
export function startRead(database: string | undefined, env: Env): PendingRead {
  const stop = new AbortController();
  const querySent = latch();
  const live = readDatabase(database, env, stop.signal, querySent.open);
  live.catch(() => undefined); // awaited by the command, after the manifest; never unhandled
  const ended = live.then(
    () => undefined,
    () => undefined,
  );
  return { database, live, sent: Promise.race([querySent.opened, ended]), stop: () => stop.abort() };
}

/**
 * Loads the manifest while the cluster answers the catalog query: connects and sends the query
 * first (parsing the manifest holds the event loop, so the handshake must be over by then), so
 * the server's time and the manifest's parsing overlap. A manifest error still comes first, as if
 * the manifest had been loaded before the database was asked anything (the read only reads), and
 * closes the connection. `onSent` is called once the query is on its way (or a second has passed):
 * the time to start loading what the command needs after the read. `started`: the read of
 * `database` the CLI began once its arguments were parsed (cli/plan-program.ts), if it did.
 */
export async function loadAndRead(
  file: string,
  database: string | undefined,
  io: { readonly env: Env; readonly cwd: string },
  onSent?: () => void,
  started?: PendingRead,
): Promise<{ m: LoadedManifest; live: LiveState & { roundTrips: number } }> {
  const read = started ?? startRead(database, io.env);
  // Not longer than a second: a slow or unreachable server must not delay a manifest error.
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 1000);
  });
  await Promise.race([read.sent, giveUp]);
  clearTimeout(timer);
  onSent?.();
  try {
    const { loadManifest } = await import('../manifest/load.js');
    const m = await loadManifest(file, nodeFsWith(io.env), io.cwd);
    return { m, live: await read.live };
  } finally {
    read.stop(); // a manifest error: the connection is not left to finish the read
  }
}

/** `--shards`: reads every shard placement on its node (read-shards.ts), on a connection of its own. */
export async function readShards(database: string | undefined, env: Env): Promise<ShardState> {
  const { readShardState } = await import('../introspect/read-shards.js');
  return withClient(connectionTarget(database, env), (c) => readShardState(c));
}

/**
 * The shards' sizes of the distributed tables whose rows a step of `plan` works through
 * (introspect/shard-sizes.ts), on a connection of its own; undefined when it has none.
 */
export async function readSizes(
  database: string | undefined,
  env: Env,
  live: LiveState,
  plan: PlanDocument,
): Promise<TableSizes | undefined> {
  const { readTableSizes, sizedTables } = await import('../introspect/shard-sizes.js');
  const tables = sizedTables(live, plan);
  if (tables.length === 0) return undefined;
  return withClient(connectionTarget(database, env), (c) => readTableSizes(c, tables));
}
