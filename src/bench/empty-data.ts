// Warnings for a bench that measured statements over no data: a TPS of UPDATEs that touched no
// row, or of calls over empty tables, says nothing about the cluster under load.
import type { Queryable } from '../db/connect.js';
import { TOOL_PATH_PINS, withPins } from '../introspect/catalog-query.js';
import { quoteQualified, type QualifiedName } from '../sql/quote.js';
import type { WorkloadResult } from './runner.js';
import { plural } from '../util/plural.js';

// Commands whose rowCount says how many rows the statement changed. A CALL reports none, and a
// SELECT of a function that returns a set may rightly return nothing (an order not found): their
// workloads are judged by the tables alone.
const COUNTED: Readonly<Record<string, string>> = {
  UPDATE: 'updated',
  DELETE: 'deleted',
  INSERT: 'inserted',
  MERGE: 'merged',
};

/** Which of `tables` hold no row, read in one statement (names through quote.ts). */
export async function emptyTables(db: Queryable, tables: readonly QualifiedName[]): Promise<QualifiedName[]> {
  if (tables.length === 0) return [];
  const sql = `SELECT ${tables.map((t, i) => `NOT EXISTS (SELECT 1 FROM ${quoteQualified(t)}) AS e${i}`).join(', ')}`;
  // As readDataBounds: Citus's own SQL for these runs with pg_catalog alone on the search_path.
  const row = (await withPins<Record<string, boolean>>(db, sql, TOOL_PATH_PINS))[0]!;
  return tables.filter((_, i) => row[`e${i}`] === true);
}

/** The warnings of a run: workloads whose every execution affected no row; every declared table empty at start. */
export function emptyDataWarnings(
  workloads: readonly WorkloadResult[],
  tables: { readonly all: readonly QualifiedName[]; readonly empty: readonly QualifiedName[] },
): string[] {
  const out: string[] = [];
  for (const w of workloads) {
    const verb = w.command === undefined ? undefined : COUNTED[w.command];
    if (verb && w.count > 0 && w.zeroRows === w.count)
      out.push(
        `workload ${w.name}: every ${w.command} (${plural(w.count, 'execution')}) ${verb} 0 rows: its TPS measures statements that did nothing — load data, or check its parameters' ranges`,
      );
  }
  // Only when every one is empty: a bench may rightly start with an empty table it inserts into.
  if (tables.all.length > 0 && tables.empty.length === tables.all.length)
    out.push(
      `every table the manifest declares was empty at the start (${tables.empty.map((t) => `${t.schema}.${t.name}`).join(', ')}): the workloads ran over no data — load it first`,
    );
  return out;
}
