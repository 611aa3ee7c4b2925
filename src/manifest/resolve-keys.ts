// Foreign-key rules Citus does not (all) enforce itself: distributed -> reference, or between
// tables of one colocation group on the distribution column; local -> distributed is refused.
import { didYouMean } from './suggest.js';
import type { ForeignKey, Table } from '../model/types.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { TableContext } from './resolve-context.js';
import type { Manifest } from './schema.js';
import { sameSet } from '../model/same.js';
import { modelDeferral } from './schema-table.js';
import { dict } from '../util/dict.js';

function kindName(t: Table): string {
  return t.distribution.kind === 'hash'
    ? 'distributed'
    : t.distribution.kind === 'single_shard'
      ? 'single-shard'
      : t.distribution.kind === 'schema'
        ? 'distributed-schema'
        : t.distribution.kind;
}

/** Why a foreign key from `from` to `to` is refused, or undefined when Citus can enforce it. */
export function foreignKeyRefusal(
  from: Table,
  to: Table,
  fk: { columns: readonly string[]; refColumns: readonly string[] },
  inTree: ReadonlySet<string> = new Set(),
): string | undefined {
  const f = from.distribution;
  const t = to.distribution;
  // citus_columnar: "Foreign keys and AFTER ROW triggers are not supported for columnar tables".
  const columnar = [from, to].find((x) => x.accessMethod === 'columnar');
  if (columnar) return `columnar table ${columnar.id} cannot have foreign keys (columnar does not support them)`;
  if (f.kind === 'schema')
    return (t.kind === 'schema' && to.qname.schema === from.qname.schema) || t.kind === 'reference'
      ? undefined
      : `a table of a distributed schema can only reference tables of its own schema or reference tables, not ${kindName(to)} table ${to.id}`;
  if (t.kind === 'schema')
    return `only tables of distributed schema ${JSON.stringify(to.qname.schema)} can reference its table ${to.id}`;
  if (f.kind === 'citus_local')
    return t.kind === 'citus_local' || t.kind === 'reference'
      ? undefined
      : `a citus_local table can only reference citus_local or reference tables, not ${kindName(to)} table ${to.id}`;
  if (t.kind === 'citus_local' && f.kind !== 'reference')
    return f.kind === 'local'
      ? `references citus_local table ${to.id}: declare this table citus_local too (or set cascade_via_foreign_keys on ${to.id})`
      : `a ${kindName(from)} table cannot reference citus_local table ${to.id}`;
  if (f.kind === 'local') {
    if (t.kind === 'local') return undefined;
    // Citus adds the local table to its metadata, which it refuses for one in an inheritance tree.
    if (t.kind === 'reference')
      return inTree.has(from.id)
        ? `references reference table ${to.id}, and Citus would add this table to its metadata for it, which it refuses for a table that inherits or is inherited ("local tables added to metadata cannot be involved in inheritance relationships")`
        : undefined;
    return `a local table cannot reference ${kindName(to)} table ${to.id}: Citus accepts it but does not enforce it from the parent side (deleting a parent row leaves orphans)`;
  }
  // Citus accepts a reference table's key to a citus_local table (both live on the coordinator's group).
  if (f.kind === 'reference') {
    return t.kind === 'reference' || t.kind === 'citus_local'
      ? undefined
      : `a reference table can only reference reference or citus_local tables, not ${kindName(to)} table ${to.id}`;
  }
  if (t.kind === 'reference') return undefined;
  if (f.kind === 'single_shard')
    return `a single-shard table can only reference a reference table, not ${kindName(to)} table ${to.id}`;
  if (t.kind !== 'hash')
    return `a distributed table can only reference a reference table or a table of its own colocation group, not ${kindName(to)} table ${to.id}`;
  if (f.group !== t.group)
    return `references ${to.id} of colocation group ${JSON.stringify(t.group)}, not of this table's group ${JSON.stringify(f.group)}; foreign keys between distributed tables need one colocation group`;
  const i = fk.columns.indexOf(f.column);
  if (i === -1 || fk.refColumns[i] !== t.column) {
    return `a foreign key between colocated tables must match distribution column ${JSON.stringify(f.column)} to ${JSON.stringify(t.column)}`;
  }
  return undefined;
}

/** Checks every declared foreign key and returns the tables with their keys attached. */
export function checkForeignKeys(m: Manifest, ctx: TableContext, problems: ProblemList): Record<string, Table> {
  const out = dict<Table>();
  const inTree = new Set(Object.values(ctx.tables).flatMap((t) => (t.inherits?.length ? [t.id, ...t.inherits] : [])));
  for (const [id, table] of Object.entries(ctx.tables)) {
    const key = ctx.keyOf.get(id)!;
    const spec = m.tables[key]!;
    const fks: ForeignKey[] = [];
    (spec.foreign_keys ?? []).forEach((fk, i) => {
      const path: Path = ['tables', key, 'foreign_keys', i];
      const refId = ctx.lookup(fk.references);
      if (!refId) {
        problems.error(
          [...path, 'references'],
          'unknown_table',
          `references ${JSON.stringify(fk.references)}, which the manifest does not declare${didYouMean(
            fk.references,
            Object.keys(ctx.tables).map((id) => ctx.keyOf.get(id) ?? id),
          )}`,
        );
        return;
      }
      const ref = ctx.tables[refId]!;
      if (fk.columns.length !== fk.ref_columns.length) {
        problems.error(
          [...path, 'ref_columns'],
          'fk_arity',
          `columns has ${fk.columns.length} column${fk.columns.length === 1 ? '' : 's'} but ref_columns has ${fk.ref_columns.length}`,
        );
        return;
      }
      const own = table.columns ? new Set(table.columns.map((c) => c.name)) : undefined;
      fk.columns.forEach((c, j) => {
        if (own && !own.has(c))
          problems.error(
            [...path, 'columns', j],
            'unknown_column',
            `column ${JSON.stringify(c)} is not a column of this table`,
          );
      });
      const theirs = ref.columns ? new Set(ref.columns.map((c) => c.name)) : undefined;
      fk.ref_columns.forEach((c, j) => {
        if (theirs && !theirs.has(c))
          problems.error(
            [...path, 'ref_columns', j],
            'unknown_column',
            `column ${JSON.stringify(c)} is not a column of ${ref.id}`,
          );
      });
      const keys = [
        ...(ref.primaryKey ? [ref.primaryKey.columns] : []),
        ...ref.unique.map((u) => u.columns),
        ...ref.indexes.filter((x) => x.unique).map((x) => x.columns),
      ];
      const immediate = [
        ...(ref.primaryKey && !ref.primaryKey.deferrable ? [ref.primaryKey.columns] : []),
        ...ref.unique.filter((u) => !u.deferrable).map((u) => u.columns),
        ...ref.indexes.filter((x) => x.unique).map((x) => x.columns),
      ];
      if (ref.columns && !keys.some((k) => sameSet(k, fk.ref_columns))) {
        problems.error(
          [...path, 'ref_columns'],
          'fk_target_not_unique',
          `ref_columns (${fk.ref_columns.join(', ')}) are not the primary key or a unique constraint of ${ref.id}`,
        );
      } else if (ref.columns && !immediate.some((k) => sameSet(k, fk.ref_columns))) {
        // PostgreSQL: "cannot use a deferrable unique constraint for referenced table".
        problems.error(
          [...path, 'ref_columns'],
          'fk_target_deferrable',
          `ref_columns (${fk.ref_columns.join(', ')}) are a DEFERRABLE key of ${ref.id}: PostgreSQL refuses a foreign key to a deferrable key`,
        );
      }
      const why = foreignKeyRefusal(table, ref, { columns: fk.columns, refColumns: fk.ref_columns }, inTree);
      if (why) {
        problems.error([...path, 'references'], 'forbidden_foreign_key', why);
        return;
      }
      fks.push({
        ...(fk.name ? { name: fk.name } : {}),
        columns: fk.columns,
        refTable: refId,
        refColumns: fk.ref_columns,
        ...(fk.on_delete ? { onDelete: fk.on_delete } : {}),
        ...(fk.on_update ? { onUpdate: fk.on_update } : {}),
        ...(fk.match === 'full' ? { matchFull: true } : {}),
        ...modelDeferral(fk),
        ...(fk.not_valid ? { notValid: true } : {}),
      });
    });
    out[id] = { ...table, foreignKeys: fks };
  }
  return out;
}
