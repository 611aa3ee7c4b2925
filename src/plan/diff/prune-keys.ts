// With prune, the primary keys, unique constraints and foreign keys of tables declared with
// columns that the manifest does not list are dropped (ALTER TABLE … DROP CONSTRAINT, never
// CASCADE), all in the drop_objects phase: before a DROP NOT NULL on a column of a dropped
// primary key, and before DROP COLUMN (which would drop a key on the column itself, so a later
// DROP CONSTRAINT would fail). PostgreSQL refuses to drop a key while a foreign key depends on
// its index ("cannot drop constraint … because other objects depend on it"), so every foreign
// key that references a dropped key goes first: the pruned ones, those of tables prune drops
// (their DROP TABLE comes later), and declared ones (diff/foreign-keys.ts drops those and adds
// them again). A key that a kept foreign key references (on an ignored table, on a table
// declared without columns, or itself ignored) is not dropped: a plan problem names it.
import { sameSet } from '../../model/same.js';
import { idOf, type ClusterModel, type ForeignKey, type Key, type Table } from '../../model/types.js';
import { quoteIdent } from '../../sql/quote.js';
import { tableRef } from '../../model/object-ref.js';
import { constraintKey } from '../../model/key-names.js';
import type { DiffProblem } from '../problem.js';
import { fkLine, keyLine, undeclaredFk, undeclaredUnique } from './unmanaged.js';
import type { IgnoreMatcher } from '../ignore.js';
import type { Step } from '../steps/steps.js';

type KeyKind = 'primary key' | 'unique constraint';

export interface PrunedConstraints {
  /** The keys prune drops: run after every foreign key that references them. */
  readonly keyDrops: readonly Step[];
  /**
   * The foreign keys prune drops, by constraintKey: those diff/foreign-keys.ts does not drop
   * itself (a declared key's former one) are dropped first.
   */
  readonly foreignKeys: ReadonlyMap<string, Step>;
  readonly problems: readonly DiffProblem[];
}

const drop = (t: Table, name: string, constraint: KeyKind | 'foreign key'): Step => ({
  kind: 'drop_constraint',
  table: t.qname,
  name,
  constraint,
  reason: 'pruned',
});

/** The undeclared keys of table `t` (declared with columns) as it is in the cluster (`a`), not ignored and not dropped already. */
function candidateKeys(
  t: Table,
  a: Table,
  skip: (name: string, line: string) => boolean,
): { kind: KeyKind; key: Key & { name: string } }[] {
  const out: { kind: KeyKind; key: Key & { name: string } }[] = [];
  const pk = a.primaryKey;
  if (pk?.name !== undefined && !t.primaryKey && !skip(pk.name, keyLine('primary key', a.id, pk)))
    out.push({ kind: 'primary key', key: { ...pk, name: pk.name } });
  for (const u of a.unique)
    if (u.name !== undefined && undeclaredUnique(t, u) && !skip(u.name, keyLine('unique constraint', a.id, u)))
      out.push({ kind: 'unique constraint', key: { ...u, name: u.name } });
  return out;
}

/**
 * What prune drops of the keys and foreign keys of declared tables. `changed` are the key drops
 * the plan makes to add them again (diff/keys.ts); `droppedTables` the tables prune drops.
 */
export function prunedConstraints(
  desired: ClusterModel,
  actual: ClusterModel,
  opts: { ignored: IgnoreMatcher; changed: readonly Step[]; droppedTables: ReadonlySet<string> },
): PrunedConstraints {
  const changed = new Set(
    opts.changed.flatMap((s) => (s.kind === 'drop_constraint' ? [constraintKey(idOf(s.table), s.name)] : [])),
  );
  const foreignKeys = new Map<string, Step>();
  const kept: { table: Table; fk: ForeignKey }[] = [];
  const onDropped: { table: Table; fk: ForeignKey & { name: string } }[] = [];
  for (const a of Object.values(actual.tables)) {
    const d = desired.tables[a.id];
    for (const fk of a.foreignKeys) {
      // Declared: diff/foreign-keys.ts drops it and adds it again around a key the plan drops.
      if (d && !undeclaredFk(d, fk)) continue;
      if (fk.name !== undefined && d?.columns && !opts.ignored(fkLine(a.id, fk)))
        foreignKeys.set(constraintKey(a.id, fk.name), drop(a, fk.name, 'foreign key'));
      else if (fk.name !== undefined && !d && opts.droppedTables.has(a.id))
        onDropped.push({ table: a, fk: { ...fk, name: fk.name } });
      else kept.push({ table: a, fk });
    }
  }
  const keyDrops: Step[] = [];
  const problems: DiffProblem[] = [];
  const dropped: { table: string; columns: readonly string[] }[] = [];
  for (const t of Object.values(desired.tables)) {
    const a = actual.tables[t.id];
    if (!a || !t.columns) continue; // declared without columns: its structure is managed elsewhere
    const skip = (name: string, line: string): boolean => changed.has(constraintKey(t.id, name)) || opts.ignored(line);
    for (const { kind, key } of candidateKeys(t, a, skip)) {
      const by = kept.filter((k) => k.fk.refTable === a.id && sameSet(k.fk.refColumns, key.columns));
      if (by.length === 0) {
        keyDrops.push(drop(a, key.name, kind));
        dropped.push({ table: a.id, columns: key.columns });
        continue;
      }
      const names = by.map((k) => `${k.fk.name !== undefined ? `${quoteIdent(k.fk.name)} ` : ''}on ${k.table.id}`);
      problems.push({
        code: 'prune_blocked',
        object: tableRef(a.id),
        message: `its ${kind} ${quoteIdent(key.name)} (${key.columns.map(quoteIdent).join(', ')}) is not declared, so prune would drop it, but foreign key${by.length === 1 ? '' : 's'} ${names.join(', ')} that the plan keeps reference${by.length === 1 ? 's' : ''} it: PostgreSQL refuses the DROP while they exist (and the plan never uses CASCADE); declare the key, or declare, drop or stop ignoring those foreign keys`,
      });
    }
  }
  // The keys the plan drops to add them again count too: a table prune drops loses its foreign
  // keys to them first.
  for (const s of opts.changed) {
    if (s.kind !== 'drop_constraint' || s.constraint === 'foreign key') continue;
    const a = actual.tables[idOf(s.table)];
    const k = [...(a?.primaryKey ? [a.primaryKey] : []), ...(a?.unique ?? [])].find((x) => x.name === s.name);
    if (a && k) dropped.push({ table: a.id, columns: k.columns });
  }
  for (const { table, fk } of onDropped)
    if (dropped.some((k) => k.table === fk.refTable && sameSet(k.columns, fk.refColumns)))
      foreignKeys.set(constraintKey(table.id, fk.name), drop(table, fk.name, 'foreign key'));
  return { keyDrops, foreignKeys, problems };
}
