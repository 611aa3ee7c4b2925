// Online changes for tables that hold rows: the plan's transaction keeps what is quick, and what
// would block writes for as long as a copy or a scan takes runs after COMMIT, one step at a time:
// create_distributed_table_concurrently, CREATE INDEX CONCURRENTLY, foreign keys added NOT
// VALID then validated (CHECKs declared in SQL files too), a new column's volatile default
// filled in batches (backfill.ts), a shard count raised by splitting shards (shard-split.ts). Steps that need a table distributed
// concurrently follow it after COMMIT.
// Pure: an interrupted apply resumes because the next plan is made from what the catalog shows.
import { idOf, type ClusterModel, type ForeignKey } from '../model/types.js';
import { fillableOnline, onlineAddColumn } from './backfill.js';
import { onlineShardSplit } from './shard-split.js';
import { coveredByRetype, onlineRetype, retypeRefusal, type PendingRetype } from './retype.js';
import { clipName, quoteQualified, type QualifiedName } from '../sql/quote.js';
import { addedCheck, createdIndex, indexConcurrently } from '../objects/statement-parts.js';
import type { DiffProblem } from './problem.js';
import { tableOf } from './steps/step-spec.js';
import type { Step } from './steps/steps.js';

export interface OnlineOptions {
  /** Whether a table (id) is changed online (its `online: true`, or `--online`). */
  readonly table: (id: string) => boolean;
  /** The server's wal_level and output_plugin_libraries (undefined: the setting does not exist). */
  readonly walLevel?: string;
  readonly outputPlugins?: string | null;
}

/** The name PostgreSQL would give a foreign key (`<table>_<columns>_fkey`), cut to 63 bytes. */
export function foreignKeyName(table: string, fk: ForeignKey): string {
  return clipName(`${table}_${fk.columns.join('_')}_fkey`);
}

/** The tables a step reads or changes, by id. */
function tablesOf(s: Step): string[] {
  const names: QualifiedName[] = [];
  if ('colocateWith' in s && s.colocateWith && s.colocateWith !== 'none') names.push(s.colocateWith);
  if ('refTable' in s) names.push(s.refTable);
  const own = tableOf(s);
  return [...(own ? [own] : []), ...names.map(idOf)];
}

/**
 * The indexes of sql: files built concurrently after COMMIT (id → their statements, saying
 * CONCURRENTLY): those declared CREATE INDEX CONCURRENTLY or on a table changed online, when
 * their table exists (one this plan creates is empty: built in the transaction) and is not
 * partitioned (PostgreSQL refuses: a problem when the file says CONCURRENTLY).
 */
function sqlIndexesBuiltOnline(
  steps: readonly Step[],
  actual: ClusterModel,
  opts: OnlineOptions,
  problems: DiffProblem[],
): Map<string, string[]> {
  const built = new Map<string, string[]>();
  for (const s of steps) {
    if (s.kind !== 'create_object' || s.objectKind !== 'index' || s.statements.length === 0) continue;
    const ix = createdIndex(s.statements[0]!, s.searchPath ?? 'public');
    const table = ix && actual.tables[idOf(ix.table)];
    if (!ix || !table || !(s.online || opts.table(table.id))) continue;
    if (table.partitionBy !== undefined) {
      if (s.online)
        problems.push({
          code: 'online_index_partitioned',
          object: s.object,
          message: `${quoteQualified(ix.table)} is partitioned, and PostgreSQL builds no index on a partitioned table CONCURRENTLY: write CREATE INDEX (built in the transaction, blocking writes to every partition while it runs), or build the index of each partition concurrently by hand, then ALTER INDEX … ATTACH PARTITION`,
        });
      continue;
    }
    const first = indexConcurrently(s.statements[0]!, true);
    if (first !== undefined) built.set(s.object, [first, ...s.statements.slice(1)]);
  }
  return built;
}

/** Rewrites a sorted plan for online changes; problems say what the server lacks for them. */
export function onlineSteps(
  steps: readonly Step[],
  actual: ClusterModel,
  opts: OnlineOptions,
  problems: DiffProblem[],
  desired?: ClusterModel,
  pending: readonly PendingRetype[] = [],
): Step[] {
  const exists = (t: QualifiedName): boolean => actual.tables[idOf(t)] !== undefined;
  const online = (t: QualifiedName): boolean => exists(t) && opts.table(idOf(t));
  // PostgreSQL builds no index on a partitioned table concurrently: built in the transaction.
  const partitioned = (t: QualifiedName): boolean => actual.tables[idOf(t)]?.partitionBy !== undefined;
  const concurrent = new Set<string>();
  const built = sqlIndexesBuiltOnline(steps, actual, opts, problems);
  // The type changes made online (retype.ts), `table column`, and why the others are not.
  const retyped = new Set<string>();
  const refused = new Map<Step, string>();
  for (const s of steps) {
    if (s.kind !== 'alter_column_type' || !online(s.table) || !desired?.tables[idOf(s.table)]) continue;
    const why = retypeRefusal(actual.tables[idOf(s.table)]!, s.column, actual);
    if (why === undefined) retyped.add(`${idOf(s.table)} ${s.column}`);
    else refused.set(s, why);
  }
  const covered = (s: Step): boolean =>
    [...retyped].some((k) => coveredByRetype(s, k.slice(0, k.lastIndexOf(' ')), k.slice(k.lastIndexOf(' ') + 1)));
  const out: Step[] = [];
  for (const s of steps) {
    if (s.kind === 'alter_column_type' && retyped.has(`${idOf(s.table)} ${s.column}`)) {
      const same = (p: PendingRetype): boolean => idOf(p.table) === idOf(s.table) && p.column === s.column;
      const left = pending.find((p) => same(p) && p.type === s.type);
      const stale = pending.find((p) => same(p) && p.type !== s.type);
      if (stale)
        out.push({ kind: 'abort_retype', table: s.table, column: s.column, shadow: stale.shadow, type: stale.type });
      out.push(...onlineRetype(actual.tables[idOf(s.table)]!, s, desired!.tables[idOf(s.table)]!, actual, left));
    } else if (s.kind === 'alter_column_type' && refused.has(s)) {
      out.push({ ...s, notOnline: refused.get(s)! });
    } else if (covered(s)) {
      // Set on the shadow column at its swap, or gone with the old column (retype.ts).
    } else if (s.kind === 'distribute_table' && s.copiesData && online(s.table)) {
      concurrent.add(idOf(s.table));
      const { copiesData: _copies, kind: _kind, ...rest } = s;
      out.push({ ...rest, kind: 'distribute_table_concurrently' });
    } else if (
      s.kind === 'alter_distributed_table' &&
      s.shardCount !== undefined &&
      s.column === undefined &&
      s.colocateWith === undefined &&
      online(s.table)
    ) {
      // A shard count raised by splitting shards, writes going on (shard-split.ts), or why not.
      const split = onlineShardSplit(s.table, s.shardCount, s.group, actual);
      out.push(typeof split === 'string' ? { ...s, notOnline: split } : split);
    } else if (s.kind === 'truncate_local_data' && concurrent.has(idOf(s.table))) {
      // create_distributed_table_concurrently moves the rows: nothing is left on the coordinator.
    } else if (
      (s.kind === 'create_index' || (s.kind === 'drop_index' && s.recreate)) &&
      online(s.table) &&
      !partitioned(s.table)
    ) {
      out.push({ ...s, concurrently: true });
    } else if (s.kind === 'create_object' && built.has(s.object)) {
      out.push({ ...s, statements: built.get(s.object)!, concurrently: true });
    } else if (s.kind === 'drop_object' && s.itself && built.has(s.object)) {
      // Dropped after COMMIT too, just before it is built again (IF EXISTS: a column the
      // transaction dropped may have taken it).
      out.push({ ...s, concurrently: true });
    } else if (s.kind === 'create_object' && s.objectKind === 'check constraint') {
      const check = s.statements.length === 1 ? addedCheck(s.statements[0]!, s.searchPath ?? 'public') : undefined;
      if (check && !check.notValid && online(check.table)) {
        out.push({ ...s, statements: [`${s.statements[0]!.trimEnd().replace(/;$/, '')} NOT VALID`] });
        out.push({ kind: 'validate_constraint', table: check.table, name: check.name, runAfterCommit: true });
      } else out.push(s);
    } else if (
      s.kind === 'add_column' &&
      s.rewrites !== undefined &&
      online(s.table) &&
      fillableOnline(actual.tables[idOf(s.table)]!, s.column, actual)
    ) {
      out.push(...onlineAddColumn(actual.tables[idOf(s.table)]!, s.column));
    } else if (s.kind === 'validate_constraint' && online(s.table)) {
      out.push({ ...s, runAfterCommit: true });
    } else if (s.kind === 'add_foreign_key' && !s.fk.notValid && online(s.table) && exists(s.refTable)) {
      const name = s.fk.name ?? foreignKeyName(s.table.name, s.fk);
      out.push({ ...s, fk: { ...s.fk, name }, notValid: true });
      out.push({ kind: 'validate_constraint', table: s.table, name, runAfterCommit: true });
    } else out.push(s);
  }
  if (concurrent.size > 0) {
    const missing: string[] = [];
    if (opts.walLevel !== undefined && opts.walLevel !== 'logical')
      missing.push(`wal_level = logical (it is ${opts.walLevel})`);
    const plugins = opts.outputPlugins;
    if (plugins !== undefined && plugins !== null && !plugins.split(',').some((p) => p.trim() === 'citus'))
      missing.push(
        `output_plugin_libraries to include citus (it is '${plugins}'; ALTER SYSTEM SET output_plugin_libraries = pgoutput, test_decoding, citus on every node, then reload)`,
      );
    if (missing.length > 0)
      problems.push({
        code: 'online_needs_logical_decoding',
        object: [...concurrent].join(', '),
        message: `cannot be distributed online: create_distributed_table_concurrently needs ${missing.join(' and ')}; a failed call leaves the table a citus-local table`,
      });
  }
  // Whatever comes after a table distributed concurrently and needs it waits for it, after COMMIT, in order.
  const later = new Set<string>();
  return out.map((s) => {
    if (s.kind === 'distribute_table_concurrently') later.add(idOf(s.table));
    if (s.kind === 'distribute_table_concurrently' || s.runAfterCommit) return s;
    if (!tablesOf(s).some((t) => later.has(t))) return s;
    tablesOf(s).forEach((t) => later.add(t));
    return { ...s, runAfterCommit: true };
  });
}
