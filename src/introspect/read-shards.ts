// Reads what `plan --shards` compares: the coordinator's Citus tables as they are defined there,
// and every shard placement as it is on its node. Three round trips from the coordinator: the
// placements, the tables' facts, and one facts query per node through run_command_on_all_nodes
// (Citus reaches the nodes where it registered them; the tool needs no address or password of
// its own for them).
import { z } from 'zod';
import type { Queryable } from '../db/connect.js';
import { quoteQualified } from '../sql/quote.js';
import { placementKey, tableKey } from '../model/shard-keys.js';
import { FACTS_ON_NODES_SQL, RELATION_FACTS_SQL, SHARD_PLACEMENTS_SQL } from './catalog-shards.js';
import { dictOf } from '../util/dict.js';

import { placement, relationFacts, type RelationFacts, type ShardState } from '../model/shard-state.js';
export type { IndexFacts, Placement, RelationFacts, ShardState } from '../model/shard-state.js';

const factsList = (doc: string): RelationFacts[] => z.array(relationFacts).parse(JSON.parse(doc));

/**
 * Reads the placements and the facts of every table and shard (three queries on the coordinator),
 * or of the tables `only` names (keys as tableKey makes them).
 */
export async function readShardState(db: Queryable, only?: ReadonlySet<string>): Promise<ShardState> {
  const placements = z
    .array(placement)
    .parse(JSON.parse((await db.query<{ doc: string }>(SHARD_PLACEMENTS_SQL)).rows[0]!.doc))
    .filter((p) => only === undefined || only.has(tableKey(p.table)));
  const tables = new Map<string, readonly [string, string]>();
  for (const p of placements) tables.set(tableKey(p.table), p.table);
  const wantedTables = [...tables].map(([key, [s, t]]) => [key, quoteQualified({ schema: s, name: t }), null]);
  const tableFacts = factsList(
    (await db.query<{ doc: string }>(RELATION_FACTS_SQL, [JSON.stringify(wantedTables)])).rows[0]!.doc,
  );
  const wantedShards = placements.map((p) => [placementKey(p), p.shard, p.group]);
  const nodes =
    placements.length === 0
      ? []
      : (
          await db.query<{ host: string; port: number; group: number; success: boolean; result: string }>(
            FACTS_ON_NODES_SQL,
            [RELATION_FACTS_SQL, JSON.stringify(wantedShards)],
          )
        ).rows;
  const shardFacts = new Map<string, RelationFacts>();
  const unreachable: { host: string; port: number; error: string }[] = [];
  for (const n of nodes) {
    if (!n.success) unreachable.push({ host: n.host, port: n.port, error: n.result });
    else for (const f of factsList(n.result)) shardFacts.set(f.key, f);
  }
  return {
    tables: dictOf(tableFacts.map((f) => [f.key, f] as const)),
    placements: placements.map((p) => {
      const facts = shardFacts.get(placementKey(p));
      return facts ? { ...p, facts } : p;
    }),
    unreachable,
  };
}
