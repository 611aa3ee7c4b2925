// A new column whose default is volatile (gen_random_uuid(), clock_timestamp()…), added online to
// a table that holds rows: instead of ADD COLUMN … DEFAULT, which computes the default for every
// row and rewrites the table (on Citus every shard) under ACCESS EXCLUSIVE, the plan's transaction
// adds the column without it, sets the default for the rows written from then on, and adds a
// marker, CHECK (column IS NOT NULL) NOT VALID; after COMMIT the rows are filled in batches
// (`SET column = DEFAULT`: the stored default, per row), then NOT NULL is set when declared (the
// marker validated first, so SET NOT NULL scans nothing), and the marker is dropped.
// The marker is the backfill's state, in the catalog and committed with the column: a plan that
// finds one (an apply interrupted after COMMIT) fills and finishes again. While it stands, a row
// written with an explicit NULL in the column is refused: the rows it would hold are told apart by
// that NULL.
// Pure.
import { idOf, type ClusterModel, type Column, type SqlObject, type Table } from '../model/types.js';
import { addedCheck } from '../objects/statement-parts.js';
import { clipName, quoteIdent, type QualifiedName } from '../sql/quote.js';
import { dict } from '../util/dict.js';
import { createSyncSql, drawsFromSequence, fillRefusal, fillSql, withoutSync } from './fill.js';
import { PLAN_SEARCH_PATH } from './pinned-settings.js';
import type { Step } from './steps/steps.js';

const PREFIX = 'citus_migrate_backfill_';

/** The marker's name: the prefix and the column's, cut to 63 bytes (the column is read from its CHECK). */
export function markerName(column: string): string {
  return clipName(`${PREFIX}${column}`);
}

export interface PendingBackfill {
  readonly table: QualifiedName;
  readonly column: string;
  readonly marker: string;
  /** The marker's object id (ClusterModel.objects). */
  readonly object: string;
  /** Validated already (the rows are filled): only the finish is left. */
  readonly validated: boolean;
}

/** `CHECK ((col IS NOT NULL))[ NOT VALID]` as pg_get_constraintdef prints it: the column, unquoted. */
function checkedColumn(statement: string): string | undefined {
  const m = /\bCHECK \(\((?:"((?:[^"]|"")+)"|([a-z_][a-z0-9_$]*)) IS NOT NULL\)\)( NOT VALID)?$/.exec(statement.trim());
  return m?.[1] !== undefined ? m[1].replace(/""/g, '"') : m?.[2];
}

/**
 * A marker an interrupted apply left (a CHECK (c IS NOT NULL) named by markerName; validated when
 * the apply stopped after the rows were filled), or undefined.
 */
function asMarker(o: SqlObject): PendingBackfill | undefined {
  // Parsed only when the name may be one (the plan reads every CHECK of the cluster).
  if (o.kind !== 'check constraint' || o.create.length !== 1 || !o.name.includes(PREFIX)) return undefined;
  const check = addedCheck(o.create[0]!, 'public');
  if (!check?.name.startsWith(PREFIX)) return undefined;
  const column = checkedColumn(o.create[0]!);
  if (column === undefined || markerName(column) !== check.name) return undefined;
  return { table: check.table, column, marker: check.name, object: o.id, validated: !check.notValid };
}

/** The backfills an interrupted apply left, and the cluster without their markers and triggers (the diff never sees them). */
export function pendingBackfills(actual: ClusterModel): { actual: ClusterModel; pending: PendingBackfill[] } {
  const pending: PendingBackfill[] = [];
  const objects = dict<SqlObject>();
  for (const [id, o] of Object.entries(actual.objects)) {
    const p = asMarker(o);
    if (p && actual.tables[idOf(p.table)]?.columns?.some((c) => c.name === p.column)) pending.push(p);
    else objects[id] = o;
  }
  if (pending.length === 0) return { actual, pending };
  // Its sync trigger and function go from the diff's sight with it.
  const hidden = pending.reduce((m, p) => withoutSync(m, p.table, p.column), { ...actual, objects });
  return { actual: hidden, pending };
}

/** Whether a table's rows can be filled in batches (by ctid): a plain table, or one hash-distributed (per shard). */
function backfillable(t: Table): boolean {
  // Not a partitioned one: a ctid names a row only within one partition.
  return t.partitionBy === undefined && (t.distribution.kind === 'local' || t.distribution.kind === 'hash');
}

/**
 * Whether a new column `c` of `t` may be filled after COMMIT instead of ADD COLUMN's rewrite. Not
 * where an UPDATE of the rows would do more or less than the rewrite: triggers and rules fire on
 * UPDATE (an updated_at trigger would touch every row), row level security may hide rows from it,
 * a columnar table takes no UPDATE, an inherited table's ctids name rows of its children too; nor
 * a default drawing from a sequence (Citus's shards number apart).
 */
export function fillableOnline(t: Table, c: Column, actual: ClusterModel): boolean {
  return (
    fillRefusal(t, actual) === undefined &&
    c.default !== undefined &&
    c.generated === undefined &&
    c.identity === undefined &&
    !drawsFromSequence(c)
  );
}

/** The steps of an online ADD COLUMN with a volatile default: in the transaction, then after COMMIT. */
export function onlineAddColumn(table: Table, column: Column): Step[] {
  const marker = markerName(column.name);
  const { default: expr, ...rest } = column;
  return [
    { kind: 'add_column', table: table.qname, column: { ...rest, notNull: false } },
    { kind: 'start_backfill', table: table.qname, column: column.name, default: expr!, marker },
    ...finishing(table, column.name, column.notNull, marker),
  ];
}

/** Fill, then (NOT NULL declared) validate the marker and set NOT NULL, then drop the marker: after COMMIT. */
function finishing(table: Table, column: string, notNull: boolean, marker: string, filled = false): Step[] {
  const fill: Step[] = [
    {
      kind: 'backfill_column',
      table: table.qname,
      column,
      marker,
      perShard: table.distribution.kind === 'hash',
      runAfterCommit: true,
    },
    ...(notNull
      ? [{ kind: 'validate_constraint', table: table.qname, name: marker, runAfterCommit: true } as const]
      : []),
  ];
  return [
    ...(filled ? [] : fill),
    { kind: 'finish_backfill', table: table.qname, column, marker, notNull, runAfterCommit: true },
  ];
}

/**
 * The plan with the backfills an interrupted apply left finished (or, when the manifest no longer
 * declares the column, its marker dropped), and without the SET NOT NULL of a column being
 * filled: finish_backfill sets it once the rows are.
 */
export function withPendingBackfills(
  steps: readonly Step[],
  pending: readonly PendingBackfill[],
  desired: ClusterModel,
  actual: ClusterModel,
): Step[] {
  if (pending.length === 0) return [...steps];
  const filling = new Set(pending.map((p) => `${idOf(p.table)} ${p.column}`));
  const dropped = new Set(steps.filter((s) => s.kind === 'drop_column').map((s) => `${idOf(s.table)} ${s.column}`));
  const out = steps.filter(
    (s) => !(s.kind === 'alter_column_not_null' && s.notNull && filling.has(`${idOf(s.table)} ${s.column}`)),
  );
  for (const p of pending) {
    const key = `${idOf(p.table)} ${p.column}`;
    if (dropped.has(key)) continue; // the column goes, and its constraint with it
    const t = actual.tables[idOf(p.table)]!;
    const d = desired.tables[idOf(p.table)]?.columns?.find((c) => c.name === p.column);
    if (d === undefined || !backfillable(t))
      out.push({ kind: 'finish_backfill', table: p.table, column: p.column, marker: p.marker, notNull: false });
    else out.push(...finishing(t, p.column, d.notNull, p.marker, p.validated));
  }
  return out;
}

/**
 * The sync trigger of a fill: a row not filled yet that an UPDATE leaves NULL in the column gets
 * its default there (the marker would refuse the row otherwise); a row written with an explicit
 * NULL over a value is still refused. The default is written as the plan's statements are.
 */
export function backfillSyncSql(table: QualifiedName, column: string, defaultExpr: string): string[] {
  const c = quoteIdent(column);
  return createSyncSql(
    table,
    column,
    'UPDATE',
    `NEW.${c} := ${defaultExpr};`,
    PLAN_SEARCH_PATH,
    `OLD.${c} IS NULL AND NEW.${c} IS NULL`,
  );
}

/** The statement that fills the column's rows with its default, in batches each committed (fill.ts). */
export function backfillSql(table: QualifiedName, column: string, perShard: boolean): string {
  const c = quoteIdent(column);
  return fillSql(table, `${c} = DEFAULT`, `${c} IS NULL`, perShard);
}
