// The cache of a distributed sequence is set node by node (Citus refuses ALTER SEQUENCE on it),
// so the coordinator's value alone says nothing about the workers: a worker that was down when
// the cache changed keeps the old one. When the cluster has distributed sequences, one more round
// trip asks every worker for its caches (run_command_on_workers); a worker that differs, or that
// cannot be read, marks the sequence (workersDiffer), so the plan sets its cache on every node
// again instead of saying the cluster matches.
import type { Queryable } from '../db/connect.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import { TOOL_PATH_PINS, withPins } from './catalog-query.js';

const WORKER_SQL = `SELECT nodename, nodeport, success, result FROM pg_catalog.run_command_on_workers(
  $cm$SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_array(schemaname, sequencename, cache_size::pg_catalog.text)), '[]') FROM pg_catalog.pg_sequences$cm$)`;

/** The document with each distributed sequence's cache as every node has it; 1 round trip or none. */
export async function withWorkerSequences(
  db: Queryable,
  doc: CatalogDoc,
): Promise<{ doc: CatalogDoc; roundTrips: number; unreadable: string[] }> {
  if (!doc.sequences.some((s) => s.distributed)) return { doc, roundTrips: 0, unreadable: [] };
  // run_command_on_workers is PL/pgSQL that names its functions without a schema: called with
  // nothing but pg_catalog on the search_path, so no look-alike in public runs with our privileges.
  const rows = await withPins<{ nodename: string; nodeport: number; success: boolean; result: string }>(
    db,
    WORKER_SQL,
    TOOL_PATH_PINS,
  );
  const unreadable: string[] = [];
  const seen = new Map<string, Set<string>>();
  for (const row of rows) {
    let caches: [string, string, string][] | undefined;
    if (row.success) {
      try {
        caches = JSON.parse(row.result) as [string, string, string][];
      } catch {
        caches = undefined;
      }
    }
    if (!caches) {
      unreadable.push(`${row.nodename}:${row.nodeport}: ${row.result}`);
      continue;
    }
    for (const [schema, name, cache] of caches) {
      const k = JSON.stringify([schema, name]);
      seen.set(k, (seen.get(k) ?? new Set()).add(cache));
    }
  }
  const sequences = doc.sequences.map((s) => {
    if (!s.distributed) return s;
    const onWorkers = seen.get(JSON.stringify([s.schema, s.name])) ?? new Set<string>();
    const agree = unreadable.length === 0 && [...onWorkers].every((c) => c === s.cache);
    return agree ? s : { ...s, workersDiffer: true };
  });
  return { doc: { ...doc, sequences }, roundTrips: 1, unreadable };
}
