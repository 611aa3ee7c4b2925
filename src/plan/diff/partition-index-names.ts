// The names of a partition's copies of its parent's indexes. PostgreSQL names a copy itself when
// it makes one (with the partition, or with the parent's index): `<partition>_<columns>_idx`,
// `_pkey`, `_key`, with a number when the name is taken. A partition's `index_names` gives others;
// without it, the name is the one PostgreSQL chooses. A copy with another name is renamed (before
// anything else); one this plan makes is renamed once it is there, from the name PostgreSQL will
// have chosen (key-names.ts). Pure.
import { chosenIndexName, defaultKeyName, isChosenIndexName, nextIndexName } from '../../model/key-names.js';
import { indexRef, tableRef } from '../../model/object-ref.js';
import { indexColumnNames } from '../../sql/index-column-names.js';
import {
  idOf,
  partitionQname,
  type ClusterModel,
  type IndexLabel,
  type Partition,
  type Table,
} from '../../model/types.js';
import { quoteIdent, type QualifiedName } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

interface CopyOf {
  readonly label: IndexLabel;
  readonly columns: readonly string[];
}

/** The relation names each schema holds (what a new index's name must not be). */
function namesBySchema(m: ClusterModel): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (schema: string, name: string | undefined): void => {
    if (name === undefined) return;
    const set = out.get(schema) ?? new Set<string>();
    set.add(name);
    out.set(schema, set);
  };
  for (const t of Object.values(m.tables)) {
    add(t.qname.schema, t.qname.name);
    add(t.qname.schema, t.primaryKey?.name);
    for (const k of t.unique) add(t.qname.schema, k.name);
    for (const i of t.indexes) add(t.qname.schema, i.name);
    for (const p of t.partitions ?? []) {
      const q = partitionQname(t, p);
      add(q.schema, q.name);
      for (const name of Object.values(p.indexNames ?? {})) add(q.schema, name);
    }
  }
  for (const s of Object.values(m.sequences)) add(s.qname.schema, s.qname.name);
  return out;
}

/** What PostgreSQL names a copy of the parent's index `parent` after: from a copy there is, else its declaration. */
function copyOf(desired: ClusterModel, t: Table, a: Table | undefined, parent: string): CopyOf | undefined {
  for (const p of a?.partitions ?? []) {
    const i = p.indexes?.find((x) => x.parent === parent);
    if (i) return { label: i.label, columns: i.columns };
  }
  const pk = t.primaryKey;
  if (pk && (pk.name ?? defaultKeyName(t.qname.name, 'primary', pk)) === parent)
    return { label: 'pkey', columns: pk.columns };
  const u = t.unique.find((k) => (k.name ?? defaultKeyName(t.qname.name, 'unique', k)) === parent);
  if (u) return { label: 'key', columns: u.columns };
  const ix = t.indexes.find((i) => i.name === parent);
  if (ix) return { label: 'idx', columns: ix.columns };
  // An index of a `sql:` file: its columns as PostgreSQL names them, from its statement.
  const o = desired.objects[indexRef({ schema: t.qname.schema, name: parent })];
  const columns = o?.create[0] === undefined ? undefined : indexColumnNames(o.create[0]);
  return columns && { label: 'idx', columns };
}

/** The names of the parent's indexes the manifest declares (the keys included); '' for an index without one. */
function parentIndexes(t: Table): string[] {
  return [
    ...(t.primaryKey ? [t.primaryKey.name ?? defaultKeyName(t.qname.name, 'primary', t.primaryKey)] : []),
    ...t.unique.map((k) => k.name ?? defaultKeyName(t.qname.name, 'unique', k)),
    ...t.indexes.map((i) => i.name ?? ''),
  ];
}

type Made = 'in_plan' | 'with_objects' | 'after_commit';

/**
 * The parent indexes this plan makes anew (created, or dropped and created again), and when: with
 * the tables, with the objects of the `sql:` files (which come after), or after COMMIT.
 */
function madeIndexes(
  desired: ClusterModel,
  actual: ClusterModel,
  table: QualifiedName,
  steps: readonly Step[],
): Map<string, Made> {
  const out = new Map<string, Made>();
  for (const t of [desired.tables[idOf(table)]])
    for (const p of t?.partitions ?? [])
      for (const parent of Object.keys(p.indexNames ?? {})) {
        const ref = indexRef({ schema: table.schema, name: parent });
        if (desired.objects[ref] !== undefined && actual.objects[ref] === undefined) out.set(parent, 'with_objects');
      }
  const same = (q: QualifiedName): boolean => q.schema === table.schema && q.name === table.name;
  for (const s of steps) {
    if (s.kind === 'create_index' && same(s.table) && s.index.name !== undefined)
      out.set(s.index.name, s.concurrently ? 'after_commit' : 'in_plan');
    if ((s.kind === 'add_primary_key' || s.kind === 'add_unique') && same(s.table)) {
      const name = s.key.name ?? defaultKeyName(table.name, s.kind === 'add_primary_key' ? 'primary' : 'unique', s.key);
      out.set(name, 'in_plan');
    }
  }
  return out;
}

/** The steps that give each declared partition's index copies their names. */
export function partitionIndexNameSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  steps: readonly Step[],
  problems: DiffProblem[],
): Step[] {
  const out: Step[] = [];
  let names: Map<string, Set<string>> | undefined;
  const taken = (schema: string): Set<string> => {
    names ??= namesBySchema(actual);
    const set = names.get(schema) ?? new Set<string>();
    names.set(schema, set);
    return set;
  };
  for (const t of Object.values(desired.tables)) {
    if (!t.partitions?.length) continue;
    const a = actual.tables[t.id];
    const made = madeIndexes(desired, actual, t.qname, steps);
    for (const p of t.partitions) {
      const q = partitionQname(t, p);
      const live = a?.partitions?.find((x) => idOf(partitionQname(a, x)) === idOf(q));
      out.push(...namesOf(desired, t, a, p, q, live, made, taken(q.schema), problems));
    }
  }
  return out;
}

function namesOf(
  desired: ClusterModel,
  t: Table,
  a: Table | undefined,
  p: Partition,
  q: QualifiedName,
  live: Partition | undefined,
  made: Map<string, Made>,
  taken: Set<string>,
  problems: DiffProblem[],
): Step[] {
  const out: Step[] = [];
  const declared = p.indexNames ?? {};
  const rename = (parent: string, from: string, to: string, when?: Made): void => {
    taken.delete(from);
    taken.add(to);
    out.push({
      kind: 'name_partition_index',
      table: t.qname,
      partition: q,
      parent,
      index: { schema: q.schema, name: from },
      to,
      ...(when ? { made: when } : {}),
    });
  };
  // The copies there are, of parent indexes this plan keeps.
  const kept = new Set<string>();
  for (const i of live?.indexes ?? []) {
    if (made.has(i.parent)) continue;
    kept.add(i.parent);
    const to =
      declared[i.parent] ??
      (isChosenIndexName(i.name, q.name, i.label, i.columns)
        ? undefined
        : nextIndexName(q.name, i.label, i.columns, (n) => taken.has(n)));
    if (to !== undefined && to !== i.name) rename(i.parent, i.name, to);
  }
  // The copies this plan makes (with the partition, or with the parent's index), that are given a name.
  const when = (parent: string): Made => made.get(parent) ?? 'in_plan';
  const makes = live ? [...made.keys()] : parentIndexes(t);
  const bases = new Map<string, number>();
  for (const parent of makes) {
    const copy = copyOf(desired, t, a, parent);
    if (!copy) continue;
    const base = chosenIndexName(q.name, copy.label, copy.columns);
    bases.set(base, (bases.get(base) ?? 0) + 1);
  }
  for (const [parent, to] of Object.entries(declared)) {
    if (kept.has(parent)) continue;
    const copy = copyOf(desired, t, a, parent);
    if (!copy) {
      problems.push({
        code: 'partition_index_unknown',
        object: tableRef(t.qname),
        message: `partition ${quoteIdent(q.name)} gives index_names a name for ${quoteIdent(parent)}, which is not an index of the table (its primary key, a unique key or an index, by name)`,
      });
      continue;
    }
    // Two copies PostgreSQL names alike (`_idx`, `_idx1`): which gets which depends on the order
    // it makes them in, which the plan does not know.
    if ((bases.get(chosenIndexName(q.name, copy.label, copy.columns)) ?? 0) > 1) {
      problems.push({
        code: 'partition_index_ambiguous',
        object: tableRef(t.qname),
        message: `partition ${quoteIdent(q.name)}: the copy of ${quoteIdent(parent)} this plan makes shares the name PostgreSQL chooses with another, numbered in an order the plan cannot know; give its name in index_names once it exists (a second apply)`,
      });
      continue;
    }
    const from = nextIndexName(q.name, copy.label, copy.columns, (n) => taken.has(n));
    taken.add(from);
    if (from !== to) rename(parent, from, to, when(parent));
  }
  return out;
}
