// The step record of a shard repair (`plan --shards`). The statement runs on the node that holds the
// placement, through Citus's master_run_on_worker (on the node Citus registered, as the same
// user): not part of the plan's transaction, so the step runs after COMMIT. master_run_on_worker
// reports a failure as a row, not an error: the DO block raises it.
import { quoteLiteral, quoteQualified as q, quoteRegclass, sqlInt } from '../../sql/quote.js';
import type { IsolateStep, ShardStep } from './shards.js';
import { CITUS, SHARDS, type StepSpecs } from './spec-record.js';
import { tableRef } from '../../model/object-ref.js';

/** The statement run on the node. */
function onNode(s: ShardStep): string {
  if (s.repair === 'reindex') return `REINDEX INDEX ${s.ddl}`;
  return `SELECT pg_catalog.worker_apply_shard_ddl_command(${sqlInt(s.shardId)}, ${quoteLiteral(s.table.schema)}, ${quoteLiteral(s.ddl)})`;
}

/** The repair as one statement on the coordinator. */
function renderShardRepair(s: ShardStep): readonly string[] {
  const body = [
    'DECLARE r record;',
    'BEGIN',
    `  SELECT * INTO r FROM pg_catalog.master_run_on_worker(ARRAY[${quoteLiteral(s.node.host)}], ARRAY[${sqlInt(s.node.port)}], ARRAY[${quoteLiteral(onNode(s))}], false);`,
    '  IF NOT r.success THEN',
    `    RAISE EXCEPTION 'repairing shard % on %:% failed: %', ${sqlInt(s.shardId)}, ${quoteLiteral(s.node.host)}, ${sqlInt(s.node.port)}, r.result;`,
    '  END IF;',
    'END',
  ].join('\n');
  return [`DO ${quoteLiteral(body)}`];
}

const ACTION: Readonly<Record<ShardStep['repair'], string>> = {
  create_index: 'create the missing index',
  reindex: 'rebuild the invalid index',
  add_constraint: 'add the missing constraint',
  create_trigger: 'create the missing trigger',
};

/** One line: which shard, where, what is wrong and what the step does. */
const summarizeShardRepair = (s: ShardStep): string =>
  `repair shard ${s.shard} (${s.shardId}) on ${s.node.host}:${s.node.port}: ${s.finding}; ${ACTION[s.repair]}`;

export const SHARD_SPECS: StepSpecs<'repair_shard' | 'isolate_tenant'> = {
  isolate_tenant: {
    // Citus refuses it "after other modifications in the same transaction": after COMMIT, its own.
    ...SHARDS,
    phase: () => 'after_commit',
    hazards: () => ['non_transactional'],
    object: (s: IsolateStep) => tableRef(s.table),
    sql: (s: IsolateStep) => [
      `SELECT pg_catalog.isolate_tenant_to_new_shard(${quoteRegclass(s.table)}, ${sqlInt(s.value)}::pg_catalog.${s.type === 'integer' ? 'int4' : s.type === 'smallint' ? 'int2' : 'int8'}, 'CASCADE', shard_transfer_mode => 'block_writes')`,
    ],
    summary: (s: IsolateStep) =>
      `isolate tenant ${s.value} of ${q(s.table)} and its colocated tables on a shard of its own (hash ${s.hash}; writes to the shard it leaves wait while its rows move)`,
  },
  repair_shard: {
    // Repairs a placement in place: no shard is created, moved or rewritten.
    ...CITUS,
    phase: () => 'after_commit',
    hazards: () => ['non_transactional'], // on the node, through a connection of its own
    object: (s) => tableRef(s.table),
    sql: renderShardRepair,
    summary: summarizeShardRepair,
  },
};
