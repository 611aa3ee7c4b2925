// Between two shard splits of a colocation group: wait until every transaction that was writing
// to the group when the last split ended has ended. Citus 13.2's blocking split
// (citus_split_shard_by_split_points, block_writes) waits for a transaction that wrote to the
// shard it splits only if that transaction began after the group's previous split: one that
// spans an earlier split of the group is not waited for, its row is left in the old shard, and
// when it commits (successfully) the row is dropped with that shard (a committed write lost:
// pinned in test/integration/shard-split.citus.test.ts). So before each split but the first,
// the writers that began before this wait began must be gone: a transaction holding
// RowExclusiveLock (or stronger) on a table of the group or on one of its shards, on any node
// (citus_locks, citus_stat_activity). Waits at most WAIT_S seconds, then fails the step naming
// them: the next apply resumes with the shards not split yet. Pure.
import { regclassLiteral, type QualifiedName } from '../sql/quote.js';

const WAIT_S = 120;
/** How the wait's statement begins (pace.ts does not pause after it). */
export const SPLIT_WAIT = 'DO $citus_migrate_split_wait$';
const POLL_S = 0.05;

/** The DO block that waits for the group's writers older than it (`table`: the group's anchor). */
export function waitForSplitWritersSql(table: QualifiedName): string {
  const group = `(SELECT p.colocationid FROM pg_catalog.pg_dist_partition p WHERE p.logicalrelid OPERATOR(pg_catalog.=) ${regclassLiteral(table)})`;
  // Each table of the group and each of its shards as a node's citus_locks may name it: with and
  // without its schema (a node's search_path decides).
  const names = `ARRAY(
      SELECT n FROM pg_catalog.pg_dist_partition p
      JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) p.logicalrelid
      JOIN pg_catalog.pg_namespace ns ON ns.oid OPERATOR(pg_catalog.=) c.relnamespace
      JOIN pg_catalog.pg_dist_shard s ON s.logicalrelid OPERATOR(pg_catalog.=) p.logicalrelid
      CROSS JOIN LATERAL (VALUES (c.relname::pg_catalog.text), (c.relname::pg_catalog.text OPERATOR(pg_catalog.||) '_' OPERATOR(pg_catalog.||) s.shardid::pg_catalog.text)) r(rel)
      CROSS JOIN LATERAL (VALUES (pg_catalog.quote_ident(r.rel)), (pg_catalog.quote_ident(ns.nspname::pg_catalog.text) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(r.rel))) q(n)
      WHERE p.colocationid OPERATOR(pg_catalog.=) ${group})`;
  return `${SPLIT_WAIT}
DECLARE
  since pg_catalog.timestamptz := pg_catalog.clock_timestamp();
  names pg_catalog.text[] := ${names};
  writers pg_catalog.text;
BEGIN
  FOR attempt IN 1..${Math.round(WAIT_S / POLL_S)} LOOP
    SELECT pg_catalog.string_agg(DISTINCT l.global_pid::pg_catalog.text, ', ') INTO writers
      FROM pg_catalog.citus_locks l
      JOIN pg_catalog.citus_stat_activity a ON a.global_pid OPERATOR(pg_catalog.=) l.global_pid AND a.nodeid OPERATOR(pg_catalog.=) l.nodeid
     WHERE l.granted AND l.relation_name OPERATOR(pg_catalog.=) ANY (names)
       AND l.mode OPERATOR(pg_catalog.=) ANY ('{RowExclusiveLock,ShareRowExclusiveLock,ExclusiveLock,AccessExclusiveLock}'::pg_catalog.text[])
       AND a.xact_start OPERATOR(pg_catalog.<) since
       AND l.global_pid OPERATOR(pg_catalog.<>) pg_catalog.citus_backend_gpid();
    IF writers IS NULL THEN RETURN; END IF;
    -- A transaction of its own per look: what each node reports of its sessions is read once per transaction.
    COMMIT;
    PERFORM pg_catalog.pg_sleep(${POLL_S});
  END LOOP;
  RAISE EXCEPTION 'transactions that wrote to the colocation group before its last shard split are still open after ${WAIT_S} s (global pids %): Citus would lose their rows if the next shard were split now; the next apply splits the shards left', writers;
END
$citus_migrate_split_wait$`;
}
