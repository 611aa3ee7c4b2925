// Who held the locks a step waited for when a lock timeout or a deadlock ended the apply: the
// sessions holding a lock on its tables, on the coordinator and, on Citus, on their shards on
// every node (the holder is often a session on a worker: a client connected to it, a long
// statement on a shard, another distributed transaction's part there). Read after the rollback,
// from pg_locks of each node; a read that fails says nothing rather than failing the report.
import type { Queryable } from '../db/connect.js';
import { withCitus } from './batches.js';
import { retriedFailure } from './execute.js';
import { ApplyError } from './failure.js';
import { describeEachHolder, type LockHolder } from '../db/lock-holders.js';
import { TOOL_PATH_PINS, withPins } from '../introspect/catalog-query.js';
import { tableKey } from '../model/shard-keys.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import { quoteQualified, typedLiteral, type QualifiedName } from '../sql/quote.js';

/** The tables steps change (their `table`), keyed as the shard check keys them. */
export function tablesOf(steps: readonly PlanStep[]): Map<string, QualifiedName> {
  const out = new Map<string, QualifiedName>();
  for (const s of steps) {
    const t = (s.step as { table?: unknown }).table;
    if (t && typeof t === 'object' && 'schema' in t && 'name' in t) {
      const q = t as QualifiedName;
      out.set(tableKey([q.schema, q.name]), { schema: q.schema, name: q.name });
    }
  }
  return out;
}

/** Granted relation locks on the relations named in $1 (text[]), other backends' only, as JSON. */
const HOLDERS_ON_NODE = (names: string): string => `SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object(
    'pid', a.pid, 'role', COALESCE(a.usename::pg_catalog.text, '?'), 'app', COALESCE(a.application_name, ''),
    'inTransaction', a.xact_start IS NOT NULL,
    'since', pg_catalog.date_trunc('second', COALESCE(a.xact_start, a.backend_start))::pg_catalog.text,
    'state', COALESCE(a.state, '?'), 'relation', l.relation::pg_catalog.regclass::pg_catalog.text, 'mode', l.mode)
    ORDER BY a.pid, l.relation)::pg_catalog.text, '[]') AS j
  FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a ON a.pid OPERATOR(pg_catalog.=) l.pid
  WHERE l.granted AND l.locktype OPERATOR(pg_catalog.=) 'relation'
    AND l.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()
    AND l.database OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
    AND l.relation OPERATOR(pg_catalog.=) ANY (SELECT pg_catalog.to_regclass(n)::pg_catalog.oid
      FROM pg_catalog.unnest(${names}::pg_catalog.text[]) AS n)`;

/** The tables' shards, by name (schema-qualified as shard_name prints them). */
const SHARD_NAMES = `SELECT pg_catalog.shard_name(s.logicalrelid, s.shardid) AS name
  FROM pg_catalog.unnest($1::pg_catalog.text[]) AS t(name)
  JOIN pg_catalog.pg_dist_shard s ON s.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(t.name)`;

/**
 * The sessions holding locks on `tables` (and on Citus their shards, on every node), described
 * one per line: "backend 123 on 127.0.0.1:9701 (role app, application "psql", in a transaction
 * since …, idle in transaction; AccessExclusiveLock on public.t_102008)".
 */
export async function lockHoldersOf(
  db: Queryable,
  tables: readonly QualifiedName[],
  citus: boolean,
): Promise<string[]> {
  const found = await holdersOf(db, tables, citus);
  return (found ?? []).flatMap(({ node, json }) => describe(json, node));
}

/** The holders' JSON per node (undefined node: a plain server), or undefined when the read fails. */
async function holdersOf(
  db: Queryable,
  tables: readonly QualifiedName[],
  citus: boolean,
): Promise<{ node?: string; json: string }[] | undefined> {
  if (tables.length === 0) return [];
  const names = tables.map((t) => quoteQualified(t));
  try {
    if (!citus) {
      const r = await db.query<{ j: string }>(HOLDERS_ON_NODE('$1'), [names]);
      return [{ json: r.rows[0]?.j ?? '[]' }];
    }
    const shards = (await db.query<{ name: string }>(SHARD_NAMES, [names])).rows.map((r) => r.name);
    const literal = `'${arrayText([...names, ...shards]).replace(/'/g, "''")}'`;
    // run_command_on_all_nodes is PL/pgSQL that names its functions without a schema: called with
    // nothing but pg_catalog on the search_path (docs/citus-facts.md).
    const rows = await withPins<{ host: string; port: number; success: boolean; result: string }>(
      db,
      `SELECT dn.nodename AS host, dn.nodeport AS port, r.success, r.result
        FROM pg_catalog.run_command_on_all_nodes(${typedLiteral(HOLDERS_ON_NODE(literal), 'text')}) r
        JOIN pg_catalog.pg_dist_node dn ON dn.nodeid OPERATOR(pg_catalog.=) r.nodeid ORDER BY dn.groupid`,
      TOOL_PATH_PINS,
    );
    return rows.filter((r) => r.success).map((r) => ({ node: `${r.host}:${r.port}`, json: r.result }));
  } catch {
    return undefined;
  }
}

/** Each session in a transaction among the holders, once: `node pid since` → its description. */
function inTransaction(found: readonly { node?: string; json: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { node, json } of found)
    for (const h of JSON.parse(json) as LockHolder[])
      if (h.inTransaction) {
        const key = `${node ?? ''} ${h.pid} ${h.since}`;
        if (!out.has(key)) out.set(key, describe(JSON.stringify([h]), node)[0] ?? key);
      }
  return out;
}

export interface WaitOut {
  /** At most this long (then the retry goes ahead anyway). */
  readonly maxMs: number;
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
  readonly sleep: (ms: number) => Promise<void>;
  /** Called once with the sessions it waits for, before it waits. */
  readonly onWaiting: (holders: readonly string[]) => void;
}

/**
 * Before a retry after a lock timeout or a deadlock: waits, holding no lock, until each session
 * that held a lock on the failed step's tables (their shards on every node, on Citus) inside a
 * transaction has ended that transaction, at most `maxMs`, reading every `pollMs`. A retry on a
 * timer alone took the lock queue again while the holder stayed: every attempt stalled the
 * application's writes behind it for the whole lock timeout (perf:disruption: four stalls in 16
 * s with the default three retries). 'none': the read failed or nobody held a lock in a
 * transaction; 'timeout': they still held after maxMs (or the apply was interrupted).
 */
export async function waitOutHolders(
  client: Queryable,
  plan: PlanDocument,
  e: unknown,
  o: WaitOut,
): Promise<'ended' | 'none' | 'timeout'> {
  if (!(e instanceof ApplyError)) return 'none';
  const all = [...plan.transaction.steps, ...plan.afterCommit];
  const step = all.filter((s) => s.index === e.stepIndex);
  const tables = [...(tablesOf(step).size > 0 ? tablesOf(step) : tablesOf(all)).values()];
  const citus = withCitus(plan);
  const first = await holdersOf(client, tables, citus);
  const waiting = first === undefined ? new Map<string, string>() : inTransaction(first);
  if (waiting.size === 0) return 'none';
  o.onWaiting([...waiting.values()]);
  const t0 = performance.now();
  while (performance.now() - t0 < o.maxMs && !o.signal?.aborted) {
    await o.sleep(o.pollMs ?? 200);
    const now = await holdersOf(client, tables, citus);
    if (now === undefined) return 'timeout';
    const still = inTransaction(now);
    if (![...waiting.keys()].some((k) => still.has(k))) return 'ended';
  }
  return 'timeout';
}

/**
 * ExecuteOptions.beforeRetry of an apply: waitOutHolders, saying whom it waits for. Not while
 * rehearsing (a rehearsal's retry holds nothing the application waits behind): the backoff.
 */
export const retryOnceHoldersEnd =
  (
    client: Queryable,
    plan: PlanDocument,
    signal: AbortSignal,
    emit: (e: { kind: 'note'; message: string }) => void,
    rehearse: boolean,
  ) =>
  async (e: unknown, maxMs: number, announce: () => void): Promise<'ended' | 'none' | 'timeout'> =>
    rehearse
      ? 'none'
      : waitOutHolders(client, plan, e, {
          maxMs,
          signal,
          sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
          onWaiting: (holders) => {
            announce();
            emit({
              kind: 'note',
              message: `waiting, holding no lock, for these transactions to end before retrying:\n${holders.map((l) => `  ${l}`).join('\n')}`,
            });
          },
        });

/** A text[] literal's text of `items`. */
function arrayText(items: readonly string[]): string {
  return `{${items.map((s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

function describe(json: string | undefined, node: string | undefined): string[] {
  return describeEachHolder(JSON.parse(json ?? '[]') as LockHolder[]).map((d) =>
    node ? d.replace(/^backend (\d+) /, `backend $1 on ${node} `) : d,
  );
}

/** A lock timeout or deadlock that ended the apply, with who held locks on the failed step's tables (else the plan's). */
export async function namingHolders(client: Queryable, plan: PlanDocument, e: unknown): Promise<unknown> {
  if (!(e instanceof ApplyError) || !retriedFailure(e)) return e;
  const all = [...plan.transaction.steps, ...plan.afterCommit];
  const step = all.filter((s) => s.index === e.stepIndex);
  const tables = tablesOf(step).size > 0 ? tablesOf(step) : tablesOf(all);
  const holders = await lockHoldersOf(client, [...tables.values()], withCitus(plan));
  return holders.length > 0 ? e.withHolders(holders) : e;
}
