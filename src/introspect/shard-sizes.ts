// Distributed tables' sizes, summed over their shards as the workers report them: for the plan's
// time estimates of the steps that work through a distributed table's rows
// (plan/lock-estimate.ts). Not part of the catalog query, which reads the coordinator alone: read
// only when the plan has such a step. Through run_command_on_shards with every name qualified,
// under a pinned search_path: citus_shard_sizes() sends the workers `to_regclass` and
// `pg_total_relation_size` unqualified, resolved there by the database's search_path, where its
// owner's look-alikes in public ran as the applying superuser (docs/citus-facts.md).
import type { Queryable } from '../db/connect.js';
import type { LiveState } from '../model/live-state.js';
import { idOf } from '../model/types.js';
import { wantsShardSizes, type TableSizes } from '../plan/lock-estimate.js';
import type { PlanDocument } from '../plan/plan.js';
import { dollarTag, quoteLiteral, regclassLiteral, type QualifiedName } from '../sql/quote.js';
import { TOOL_PATH_PINS, withPins } from './catalog-query.js';

/** The command run on each shard: its size, the shard named with its schema (shard_name leaves public's bare). */
function sizeCommand(t: QualifiedName): string {
  const shard = t.schema === 'public' ? `('public.' OPERATOR(pg_catalog.||) %1$L)` : '%1$L';
  return `SELECT pg_catalog.pg_total_relation_size(${shard}::pg_catalog.regclass)`;
}

/** The sizes of `tables` over their shards; a read that fails gives none. */
export async function readTableSizes(db: Queryable, tables: readonly QualifiedName[]): Promise<TableSizes> {
  if (tables.length === 0) return {};
  const rows = tables.map((t) => {
    const cmd = sizeCommand(t);
    const tag = dollarTag(cmd, 'size');
    return `(${quoteLiteral(idOf(t))}, ${regclassLiteral(t)}, ${tag}${cmd}${tag})`;
  });
  const sql = `SELECT t.id, pg_catalog.count(*)::pg_catalog.int4 AS shards, pg_catalog.sum(r.result::pg_catalog.int8)::pg_catalog.int8 AS bytes
  FROM (VALUES ${rows.join(', ')}) AS t(id, rel, cmd)
  CROSS JOIN LATERAL pg_catalog.run_command_on_shards(t.rel, t.cmd) AS r
  WHERE r.success GROUP BY t.id`;
  try {
    const r = await withPins<{ id: string; shards: number; bytes: string }>(db, sql, TOOL_PATH_PINS);
    return Object.fromEntries(r.map((x) => [x.id, { shards: x.shards, bytes: Number(x.bytes) }]));
  } catch {
    return {};
  }
}

/** The distributed tables whose rows a step of `plan` works through: their time estimates need their sizes. */
export function sizedTables(live: LiveState, plan: PlanDocument): QualifiedName[] {
  const ids = live.citus ? wantsShardSizes([...plan.transaction.steps, ...plan.afterCommit], live.model) : [];
  return ids.flatMap((id) => live.model.tables[id]?.qname ?? []);
}

/** The plan again with its distributed tables' sizes when sizedTables names any; else as it is, and nothing read. */
export async function withShardSizes(
  db: Queryable,
  live: LiveState,
  plan: (sizes: TableSizes) => PlanDocument,
): Promise<PlanDocument> {
  const first = plan({});
  const tables = sizedTables(live, first);
  return tables.length === 0 ? first : plan(await readTableSizes(db, tables));
}
