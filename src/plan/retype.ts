// A column's type changed online (expand, fill, swap): instead of ALTER COLUMN … TYPE, which
// rewrites the table (on Citus every shard) under ACCESS EXCLUSIVE for as long as the copy takes,
// the plan's transaction adds a shadow column of the new type, a trigger that sets it from the
// column on every INSERT and UPDATE (the assignment cast ALTER … TYPE would use, or its USING),
// and a marker CHECK, NOT VALID, that holds once every row is filled. After COMMIT the rows are
// filled in batches (fill.ts: an UPDATE of the column to itself, the trigger computing the
// shadow), the marker is validated (it proves the fill complete without blocking writes), the
// column's indexes are built on the shadow concurrently, and one short transaction, under
// --lock-timeout and retried, drops the trigger and the old column, renames the shadow in its
// place, sets its default and NOT NULL (the validated marker proves it: no scan) and renames the
// indexes. The column becomes the last of its table's.
// The shadow column and its marker are the change's state, in the catalog: a plan that finds them
// (an apply interrupted after COMMIT) goes on with what is left, or drops them when it no longer
// asks for that type online.
// Pure.
import { chosenIndexName, defaultKeyName } from '../model/key-names.js';
import { columnRef, relationRef, rowRef } from '../model/object-ref.js';
import { idOf, type ClusterModel, type Index, type Key, type Table } from '../model/types.js';
import { clipName, quoteIdent, type QualifiedName } from '../sql/quote.js';
import { drawsFromSequence, fillRefusal } from './fill.js';
import type { Step, StepOf } from './steps/steps.js';

export const SHADOW = 'citus_migrate_new_';
export const MARKER = 'citus_migrate_retype_';

/** The shadow column and the marker of a column's online type change. */
export const retypeNames = (column: string): { shadow: string; marker: string } => ({
  shadow: clipName(`${SHADOW}${column}`),
  marker: clipName(`${MARKER}${column}`),
});
const shadowIndexName = (name: string): string => clipName(`${SHADOW}${name}`);

export interface PendingRetype {
  readonly table: QualifiedName;
  readonly column: string;
  readonly shadow: string;
  /** The shadow column's type (format_type). */
  readonly type: string;
  readonly marker: string;
  /** The marker is validated: the rows are filled. */
  readonly validated: boolean;
  /** The shadow's valid indexes, by name. */
  readonly indexes: readonly string[];
}

/** What a swap sets again after DROP COLUMN (which takes the column's comment and grants). */
const CARRIED = ['comment', 'privileges'];
const mentions = (expr: string, column: string): boolean =>
  new RegExp(`(^|[^a-z0-9_$"])${quoteIdent(column).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z0-9_$"])`, 'i').test(
    expr,
  );

/** Why the type of `column` of `t` cannot change online (undefined: it can). */
export function retypeRefusal(t: Table, column: string, actual: ClusterModel): string | undefined {
  const fill = fillRefusal(t, actual);
  if (fill !== undefined) return fill;
  // A child's inherited column cannot be dropped at the swap.
  if ((t.inherits ?? []).length > 0) return 'it inherits from another table';
  const c = t.columns?.find((x) => x.name === column);
  if (!c) return 'the column is not there';
  if (c.identity !== undefined || c.generated !== undefined) return 'it is an identity or generated column';
  if (drawsFromSequence(c)) return 'its default draws from a sequence';
  const gen = t.columns?.find((x) => x.generated !== undefined && mentions(x.generated, column));
  if (gen) return `the generated column ${quoteIdent(gen.name)} reads it`;
  // A key is built again on the shadow and added USING INDEX at the swap; a foreign key would
  // have to be dropped and validated again.
  if (t.foreignKeys.some((fk) => fk.columns.includes(column))) return 'it is in a foreign key';
  const referring = Object.values(actual.tables).find((x) =>
    x.foreignKeys.some((fk) => fk.refTable === t.id && fk.refColumns.includes(column)),
  );
  if (referring) return `a foreign key of ${referring.id} references it`;
  const ref = columnRef(t.qname, column);
  const row = rowRef(t.qname);
  const user = Object.values(actual.objects).find(
    (o) => !CARRIED.includes(o.kind) && (o.deps.includes(ref) || o.deps.includes(row)),
  );
  if (user) return `${user.id} uses it`;
  return undefined;
}

/** The name the column's index `ix` (desired) has, or gets when the manifest names none. */
function indexName(t: Table, ix: Index): string {
  if (ix.name !== undefined) return ix.name;
  const same = t.indexes.find(
    (a) => a.unique === ix.unique && a.using === ix.using && a.columns.join() === ix.columns.join(),
  );
  return same?.name ?? chosenIndexName(t.qname.name, 'idx', ix.columns);
}

/** The statements that set the column's comment and grants again after the swap. */
function carried(t: Table, column: string, actual: ClusterModel): string[] {
  const comment = `on column ${idOf(t.qname)}.${quoteIdent(column)}`;
  const parent = relationRef(t.qname);
  return Object.values(actual.objects)
    .filter(
      (o) =>
        (o.kind === 'comment' && o.name === comment) ||
        (o.kind === 'privileges' && o.parent === parent && o.create.some((s) => mentions(s, column))),
    )
    .flatMap((o) => o.create);
}

/** The steps of an online type change (`s`, as the diff planned it), or what is left of one (`pending`). */
export function onlineRetype(
  t: Table,
  s: StepOf<'alter_column_type'>,
  desired: Table,
  actual: ClusterModel,
  pending?: PendingRetype,
): Step[] {
  const d = desired.columns!.find((c) => c.name === s.column)!;
  const { shadow, marker } = retypeNames(s.column);
  const perShard = t.distribution.kind === 'hash';
  const indexes = desired.indexes
    .filter((ix) => ix.columns.includes(s.column))
    .map((ix) => ({ ix, name: indexName(t, ix), shadow: shadowIndexName(indexName(t, ix)) }));
  // The keys over the column, built again on the shadow as unique indexes, added USING INDEX at the swap.
  const keyName = (k: Key, kind: 'primary' | 'unique'): string =>
    k.name ??
    (kind === 'primary' ? t.primaryKey?.name : t.unique.find((a) => a.columns.join() === k.columns.join())?.name) ??
    defaultKeyName(t.qname.name, kind, k);
  const keys = [
    ...(desired.primaryKey?.columns.includes(s.column) ? [{ k: desired.primaryKey, kind: 'primary' as const }] : []),
    ...desired.unique.filter((k) => k.columns.includes(s.column)).map((k) => ({ k, kind: 'unique' as const })),
  ].map(({ k, kind }) => ({
    k,
    kind,
    name: keyName(k, kind),
    shadow: shadowIndexName(keyName(k, kind)),
  }));
  // A key's columns are NOT NULL: proved by the marker, or ADD PRIMARY KEY would scan for it.
  const notNull = d.notNull || keys.some((x) => x.kind === 'primary');
  const after = { runAfterCommit: true } as const;
  const steps: Step[] = [];
  if (!pending) {
    steps.push({
      kind: 'start_retype',
      table: t.qname,
      column: s.column,
      shadow,
      marker,
      type: s.type,
      from: s.from,
      ...(s.collation !== undefined ? { collation: s.collation } : {}),
      ...(s.collationSchema !== undefined ? { collationSchema: s.collationSchema } : {}),
      ...(s.using !== undefined ? { using: s.using } : {}),
      notNull,
      ...(d.storage !== undefined ? { storage: d.storage } : {}),
      ...(d.statistics !== undefined ? { statistics: d.statistics } : {}),
    });
  }
  if (!pending?.validated) {
    steps.push({ kind: 'backfill_column', table: t.qname, column: s.column, marker, perShard, shadow, ...after });
    steps.push({ kind: 'validate_constraint', table: t.qname, name: marker, ...after });
  }
  // The shadow's indexes, built concurrently (one an interrupted apply left invalid, dropped first).
  const build = (name: string, columns: readonly string[], ix: Omit<Index, 'name' | 'columns'>): void => {
    if (pending?.indexes.includes(name)) return;
    if (pending && t.indexes.some((a) => a.name === name))
      steps.push({
        kind: 'drop_index',
        table: t.qname,
        index: { schema: t.qname.schema, name },
        recreate: true,
        invalid: true,
        concurrently: true,
        ...after,
      });
    const on = columns.map((c) => (c === s.column ? shadow : c));
    steps.push({
      kind: 'create_index',
      table: t.qname,
      index: { ...ix, name, columns: on },
      concurrently: true,
      ...after,
    });
  };
  for (const x of indexes) build(x.shadow, x.ix.columns, { unique: x.ix.unique, using: x.ix.using });
  for (const x of keys) build(x.shadow, x.k.columns, { unique: true, using: 'btree' });
  steps.push({
    kind: 'finish_retype',
    table: t.qname,
    column: s.column,
    shadow,
    marker,
    type: s.type,
    notNull,
    ...(d.default !== undefined ? { default: d.default } : {}),
    indexes: indexes.map((x) => ({ shadow: x.shadow, name: x.name })),
    keys: keys.map((x) => ({
      kind: x.kind,
      name: x.name,
      shadow: x.shadow,
      ...(x.k.deferrable !== undefined ? { deferrable: x.k.deferrable } : {}),
      ...(x.k.initiallyDeferred !== undefined ? { initiallyDeferred: x.k.initiallyDeferred } : {}),
    })),
    carried: carried(t, s.column, actual),
    ...after,
  });
  return steps;
}

/** The steps of the diff an online type change of (table, column) stands for: it sets them on the shadow, or they go with the old column. */
export function coveredByRetype(s: Step, table: string, column: string): boolean {
  if (!('table' in s) || idOf(s.table as QualifiedName) !== table) return false;
  switch (s.kind) {
    case 'alter_column_default':
    case 'alter_column_not_null':
    case 'alter_column_storage':
    case 'alter_column_statistics':
    case 'alter_column_compression':
    case 'alter_column_options':
      return s.column === column;
    case 'create_index':
      return s.index.columns.includes(column);
    default:
      return false;
  }
}
