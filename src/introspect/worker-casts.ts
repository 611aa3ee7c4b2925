// Casts on Citus's workers. Citus does not propagate CREATE CAST (docs/citus-facts.md), so the
// coordinator's casts say nothing of the workers': when the coordinator has casts of its users,
// one more round trip asks every worker for theirs (run_command_on_workers), and a cast a worker
// lacks, or that a worker cannot be read for, is marked (missingOn): the plan makes it there
// (plan/diff/cast-workers.ts) instead of saying the cluster matches.
import type { Queryable } from '../db/connect.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import { TOOL_PATH_PINS, withPins } from './catalog-query.js';
import { USER_CASTS } from './catalog-casts.js';

// Each cast's types as format_type prints them on the worker's connection (search_path "$user",
// public, as Citus opens it): a type of public unqualified, as the coordinator's names are read.
const WORKER_SQL = `SELECT nodename, nodeport, success, result FROM pg_catalog.run_command_on_workers(
  $cm$SELECT COALESCE(pg_catalog.json_agg('(' OPERATOR(pg_catalog.||) pg_catalog.format_type(ca.castsource, NULL) OPERATOR(pg_catalog.||) ' AS ' OPERATOR(pg_catalog.||) pg_catalog.format_type(ca.casttarget, NULL) OPERATOR(pg_catalog.||) ')'), '[]') FROM pg_catalog.pg_cast ca WHERE ${USER_CASTS}$cm$)`;

/** A cast's name with its types of public unqualified, whichever search_path printed it. */
const unpublic = (name: string): string => name.replace(/(?<=[( ])public\./g, '');

/** The document with each cast marked with the workers that lack it; 1 round trip, or none without casts. */
export async function withWorkerCasts(
  db: Queryable,
  doc: CatalogDoc,
): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  if (!doc.server.citus || !doc.objects.some((o) => o.kind === 'cast')) return { doc, roundTrips: 0 };
  const rows = await withPins<{ nodename: string; nodeport: number; success: boolean; result: string }>(
    db,
    WORKER_SQL,
    TOOL_PATH_PINS,
  );
  const held = rows.map((row) => {
    let casts: string[] | undefined;
    try {
      casts = row.success ? (JSON.parse(row.result) as string[]) : undefined;
    } catch {
      casts = undefined;
    }
    // A worker that cannot be read is taken to lack them all: the plan makes them there again.
    return { node: `${row.nodename}:${row.nodeport}`, casts: new Set((casts ?? []).map(unpublic)) };
  });
  const objects = doc.objects.map((o) => {
    if (o.kind !== 'cast') return o;
    const missingOn = held.filter((w) => !w.casts.has(unpublic(o.name))).map((w) => w.node);
    return missingOn.length > 0 ? { ...o, missingOn } : o;
  });
  return { doc: { ...doc, objects }, roundTrips: 1 };
}
