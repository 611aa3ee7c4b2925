// Per-test databases on the throwaway servers, and small helpers to run SQL and psql.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { quoteIdent, quoteLiteral } from '../../src/sql/quote.js';
import { stableJson } from '../../src/util/stable-json.js';
import { normalizeFixture } from './scenarios.js';
import type { NodeAddress, ServerInfo } from './servers.js';
import { readCatalogChecked } from './catalog-oracle.js';
import { claimServerSet } from './server-claim.js';

/** This file's set of servers (global-setup.ts starts one per worker; server-claim.ts picks). */
const serverSet = <T>(sets: readonly T[]): T => sets[claimServerSet(inject('serverClaims'), sets.length)]!;
export const citusServers = (): ServerInfo | null => serverSet(inject('citus'));
export const plainServers = (): ServerInfo => serverSet(inject('plainPg'));

function connect(info: ServerInfo, node: NodeAddress, database: string): pg.Client {
  return new pg.Client({
    host: node.host,
    port: node.port,
    user: info.user,
    ...(info.password ? { password: info.password } : {}),
    database,
  });
}

/** Runs statements on one connection; returns the error message of the first failure, if any. */
export async function firstError(url: string, statements: readonly string[]): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await client.end();
  }
}

/** Runs statements on one node and returns the last result's rows. */
export async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(
  info: ServerInfo,
  database: string,
  statements: string | readonly string[],
  node = 0,
): Promise<T[]> {
  const client = connect(info, info.nodes[node]!, database);
  await client.connect();
  try {
    let rows: T[] = [];
    for (const s of typeof statements === 'string' ? [statements] : statements) rows = (await client.query<T>(s)).rows;
    return rows;
  } finally {
    await client.end();
  }
}

export interface TestDb {
  readonly name: string;
  readonly url: string;
  query<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, node?: number): Promise<T[]>;
  /** Runs a file or text through psql -v ON_ERROR_STOP=1; returns status and output. */
  psql(args: { file?: string; input?: string; vars?: Record<string, string> }): {
    status: number;
    stdout: string;
    stderr: string;
  };
}

/** The Citus databases this test file made (drop-databases.ts drops them once it ends). */
const madeOnCitus: { info: ServerInfo; name: string }[] = [];

/**
 * Drops the Citus databases the test file made, on every node. Each Citus database runs a
 * maintenance daemon, a background worker of its own: kept for the whole run, they took every
 * worker slot, and the logical replication workers create_distributed_table_concurrently needs
 * could no longer start (it waited for ever).
 */
export async function dropMadeOnCitus(): Promise<void> {
  for (const { info, name } of madeOnCitus.splice(0))
    for (const n of info.nodes.keys())
      await sql(info, 'postgres', `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`, n).catch(() => undefined);
}

/** A fresh database on every node (Citus: extension created and workers registered). */
export async function freshDatabase(info: ServerInfo, prefix = 't'): Promise<TestDb> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  if (info.citus) madeOnCitus.push({ info, name });
  for (const n of info.nodes.keys()) await sql(info, 'postgres', `CREATE DATABASE ${quoteIdent(name)}`, n);
  if (info.citus) {
    for (let n = 1; n < info.nodes.length; n++) await sql(info, name, 'CREATE EXTENSION citus', n);
    // Registered where Citus reaches them (a container's network alias), which may not be where
    // the tests connect (the port mapped on 127.0.0.1).
    const [c, ...workers] = info.nodes.map((n) => n.registerAs ?? n);
    await sql(info, name, [
      'CREATE EXTENSION citus',
      `SELECT citus_set_coordinator_host(${quoteLiteral(c!.host)}, ${c!.port})`,
      ...workers.map((w) => `SELECT citus_add_node(${quoteLiteral(w.host)}, ${w.port})`),
    ]);
  }
  const c = info.nodes[0]!;
  // A cluster with a password (containers) gets it in the URL: the CLI in-process, pg and psql all take it from there.
  const auth = `${encodeURIComponent(info.user)}${info.password ? `:${encodeURIComponent(info.password)}` : ''}`;
  const url = `postgresql://${auth}@${c.host}:${c.port}/${name}`;
  return {
    name,
    url,
    query: (text, node = 0) => sql(info, name, text, node),
    psql: ({ file, input, vars }) => {
      const r = spawnSync(
        'psql',
        [
          '-X',
          '-q',
          '-v',
          'ON_ERROR_STOP=1',
          ...Object.entries(vars ?? {}).flatMap(([k, v]) => ['-v', `${k}=${v}`]),
          '-d',
          url,
          ...(file ? ['-f', file] : []),
        ],
        {
          input: input ?? '',
          encoding: 'utf8',
          env: { ...process.env, ...(info.password ? { PGPASSWORD: info.password } : {}) },
        },
      );
      return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    },
  };
}

/** The hosts Citus knows the workers by (what bench prints as "delegated to worker HOST:PORT"). */
export const workerHosts = (info: ServerInfo): string[] => info.nodes.slice(1).map((n) => (n.registerAs ?? n).host);

/** Polls until `count` (a query returning { n }) satisfies `until`, or about 10 s pass. */
export async function pollCount(
  db: TestDb,
  sql: string,
  until: (n: number) => boolean,
  tries = 100,
  everyMs = 100,
): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    const [row] = await db.query<{ n: number }>(sql);
    if (until(row!.n)) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}

/** SQL counting sessions running the online fill's DO block (plan/fill.ts). */
export const FILLING =
  "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'DO $fill$%'";

/**
 * A session on the worker of `table`'s first shard, holding that shard in `mode` inside a
 * transaction until the caller ends it (ROLLBACK, then end()).
 */
export async function holdFirstShard(citus: ServerInfo, db: TestDb, table: string, mode: string): Promise<pg.Client> {
  const [first] = await db.query<{ shard: string; port: number }>(
    `SELECT shard_name::text AS shard, nodeport AS port FROM citus_shards WHERE table_name = ${quoteLiteral(table)}::regclass ORDER BY shardid LIMIT 1`,
  );
  const at = citus.nodes.find((n) => (n.registerAs ?? n).port === first!.port)!;
  const holder = new pg.Client({
    host: at.host,
    port: at.port,
    user: citus.user,
    ...(citus.password ? { password: citus.password } : {}),
    database: db.name,
  });
  await holder.connect();
  await holder.query(
    `SET citus.enable_manual_changes_to_shards = on; BEGIN; LOCK TABLE ${first!.shard} IN ${mode} MODE`,
  );
  return holder;
}

/** SQL counting the CLI's sessions, optionally only those waiting on a lock. */
export const cliSessions = (waitingOnLock = false): string =>
  `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'citus-migrate'${waitingOnLock ? " AND wait_event_type = 'Lock'" : ''}`;

/**
 * The database's catalog as read by the tool, as comparable text. `normalizeIds` renumbers
 * colocation ids by membership (ids used by a rolled-back transaction are never reused);
 * `shards` adds the shard count, `history` whether the tool's history schema exists.
 */
export async function catalogSnapshot(
  db: TestDb,
  opts: { normalizeIds?: boolean; shards?: boolean; history?: boolean } = {},
): Promise<string> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    const { doc: read } = await readCatalogChecked(c);
    // Whether the tool's own object_state table exists is its bookkeeping, not the user's schema
    // (a failed apply still brings the history schema up to date).
    const { objectState: _bookkeeping, ...rest } = read;
    // Planner statistics change when autovacuum analyzes: not part of the schema.
    const doc = { ...rest, tables: rest.tables.map(({ rows: _rows, bytes: _bytes, ...t }) => t) };
    const out: Record<string, unknown> = { doc: opts.normalizeIds ? normalizeFixture(doc as typeof read) : doc };
    if (opts.shards)
      out.shards = doc.server.citus ? (await c.query('SELECT count(*)::int AS n FROM pg_dist_shard')).rows[0].n : 0;
    if (opts.history)
      out.history = (
        await c.query("SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'citus_migrate'")
      ).rows[0].n;
    return stableJson(out);
  } finally {
    await c.end();
  }
}
