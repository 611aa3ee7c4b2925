// `plan --shards` (issue #24): every shard placement compared with its table on the coordinator.
// Citus can leave a shard without an index the coordinator shows (a failed CONCURRENTLY build,
// DDL run with propagation off) or with an invalid one. What a step can repair becomes a
// repair_shard step; what it cannot (a missing shard, other columns, a missing foreign key, an
// object only the shard has) is a problem naming the shard. Pure.
import type { IndexFacts, RelationFacts, ShardState } from '../../model/shard-state.js';
import { placementKey, tableKey } from '../../model/shard-keys.js';
import { quoteIdent, quoteQualified, type QualifiedName } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { ShardStep } from '../steps/shards.js';

export interface ShardCheck {
  readonly steps: readonly ShardStep[];
  readonly problems: readonly DiffProblem[];
}

/** Elements of `want` not matched in `have` by key, each match used once (a multiset difference). */
function unmatched<A, B>(want: readonly A[], have: readonly B[], keyA: (a: A) => string, keyB: (b: B) => string): A[] {
  const left = new Map<string, number>();
  for (const b of have) left.set(keyB(b), (left.get(keyB(b)) ?? 0) + 1);
  return want.filter((a) => {
    const n = left.get(keyA(a)) ?? 0;
    if (n === 0) return true;
    left.set(keyA(a), n - 1);
    return false;
  });
}

/**
 * A key function that computes each object's key once: a table's facts are compared with each of
 * its placements (32 and more), and its keys were spelt again for every one.
 */
function once<T extends object>(key: (x: T) => string): (x: T) => string {
  const known = new WeakMap<T, string>();
  return (x) => {
    let k = known.get(x);
    if (k === undefined) known.set(x, (k = key(x)));
    return k;
  };
}

const shapeKey = once((i: IndexFacts): string => JSON.stringify(i.shape));
type Constraint = NonNullable<RelationFacts['constraints']>[number];
// A shard's foreign key references the referenced table's shard: compare its columns only.
const constraintKey = once((c: Constraint): string =>
  c.type === 'f' ? `f ${JSON.stringify(c.columns)}` : `${c.type} ${c.definition}`,
);
const colKey = once((c: readonly [string, string, boolean]): string => JSON.stringify(c));
type Trigger = NonNullable<RelationFacts['triggers']>[number];
// Citus names a shard's trigger after its table's with the shard id appended.
const triggerKey =
  (shardId?: number) =>
  (t: Trigger): string =>
    `${shardId !== undefined && t.name.endsWith(`_${shardId}`) ? t.name.slice(0, -`_${shardId}`.length) : t.name} ${t.function}`;

/** Compares every placement with its table; a repair step or a problem for each difference. */
export function checkShards(state: ShardState): ShardCheck {
  const steps: ShardStep[] = [];
  const problems: DiffProblem[] = [];
  for (const u of state.unreachable)
    problems.push({
      code: 'shard_node_unreachable',
      object: `node ${u.host}:${u.port}`,
      message: `its shards could not be read (${u.error}); plan --shards checks nothing there`,
    });
  const down = new Set(state.unreachable.map((u) => `${u.host}:${u.port}`));
  // The node groups each table has placements in: a shard's foreign key exists only where the
  // referenced table has a placement too (a reference table's key to a citus_local table is on
  // the coordinator's placement alone).
  const groupsOf = new Map<string, Set<number>>();
  for (const p of state.placements) {
    const k = tableKey(p.table);
    groupsOf.set(k, (groupsOf.get(k) ?? new Set()).add(p.group));
  }
  const fkCanBeOn = (c: Constraint, group: number): boolean => {
    const on = c.refTable ? groupsOf.get(tableKey(c.refTable)) : undefined;
    return on === undefined || on.has(group);
  };
  for (const p of state.placements) {
    const t = state.tables[tableKey(p.table)];
    if (!t?.exists || down.has(`${p.host}:${p.port}`)) continue;
    const table: QualifiedName = { schema: p.table[0], name: p.table[1] };
    const object = `shard ${p.shard} (${p.shardId}) of table ${quoteQualified(table)} on ${p.host}:${p.port}`;
    const problem = (code: string, message: string): void => {
      problems.push({ code, object, message });
    };
    const f = p.facts;
    if (!f?.exists) {
      problem('shard_missing', `the shard's table does not exist on the node (placement ${placementKey(p)})`);
      continue;
    }
    const step = (repair: ShardStep['repair'], finding: string, ddl: string): void => {
      steps.push({ kind: 'repair_shard', table, shardId: p.shardId, shard: p.shard, node: p, repair, finding, ddl });
    };
    for (const c of unmatched(t.columns ?? [], f.columns ?? [], colKey, colKey))
      problem(
        'shard_column_differs',
        `column ${quoteIdent(c[0])} ${c[1]}${c[2] ? ' NOT NULL' : ''} is not on the shard as the coordinator has it`,
      );
    for (const c of unmatched(f.columns ?? [], t.columns ?? [], colKey, colKey))
      problem(
        'shard_column_differs',
        `the shard has column ${quoteIdent(c[0])} ${c[1]}${c[2] ? ' NOT NULL' : ''}, which the coordinator's table does not`,
      );

    // An index invalid on the coordinator (a failed CREATE INDEX CONCURRENTLY: its shards may
    // have it valid, invalid, or not at all) is the plan's to rebuild, shards and all, when the
    // manifest declares it, and named as unmanaged otherwise: its shards are not compared.
    const rebuilt = new Set((t.indexes ?? []).filter((i) => !i.valid).map(shapeKey));
    const plainIdx = (x: RelationFacts): IndexFacts[] =>
      (x.indexes ?? []).filter((i) => i.constraint === null && !rebuilt.has(shapeKey(i)));
    for (const i of unmatched(plainIdx(t), plainIdx(f), shapeKey, shapeKey))
      // (The coordinator's table's facts hold the definition; a shard's do not.)
      if (i.definition !== null) step('create_index', `index ${quoteIdent(i.name)} is missing`, i.definition);
      else problem('shard_index_missing', `index ${quoteIdent(i.name)} is missing`);
    for (const i of unmatched(plainIdx(f), plainIdx(t), shapeKey, shapeKey))
      problem('shard_extra_index', `the shard has index ${quoteIdent(i.name)}, which the coordinator's table does not`);
    // An invalid index (a failed CREATE INDEX CONCURRENTLY) is there but not used, nor enforced.
    for (const i of f.indexes ?? [])
      if (!i.valid && !rebuilt.has(shapeKey(i)) && (t.indexes ?? []).some((c) => shapeKey(c) === shapeKey(i)))
        step('reindex', `index ${quoteIdent(i.name)} is invalid`, quoteQualified({ schema: i.schema, name: i.name }));

    const wanted = (t.constraints ?? []).filter((c) => c.type !== 'f' || fkCanBeOn(c, p.group));
    for (const c of unmatched(wanted, f.constraints ?? [], constraintKey, constraintKey)) {
      if (c.type === 'f')
        problem('shard_constraint_missing', `foreign key ${quoteIdent(c.name)} is missing (${c.definition})`);
      else
        step(
          'add_constraint',
          `constraint ${quoteIdent(c.name)} is missing`,
          `ALTER TABLE ${quoteQualified(table)} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`,
        );
    }
    for (const c of unmatched(f.constraints ?? [], t.constraints ?? [], constraintKey, constraintKey))
      problem(
        'shard_extra_constraint',
        `the shard has constraint ${quoteIdent(c.name)} (${c.definition}), which the coordinator's table does not`,
      );

    const tk = triggerKey();
    const sk = triggerKey(p.shardId);
    for (const g of unmatched(t.triggers ?? [], f.triggers ?? [], tk, sk))
      step('create_trigger', `trigger ${quoteIdent(g.name)} is missing`, g.definition);
    for (const g of unmatched(f.triggers ?? [], t.triggers ?? [], sk, tk))
      problem(
        'shard_extra_trigger',
        `the shard has trigger ${quoteIdent(g.name)}, which the coordinator's table does not`,
      );
  }
  return { steps, problems };
}
