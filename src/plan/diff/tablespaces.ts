// Tablespaces of relations, as the 'tablespace' objects of the sql: files declare them (`ALTER
// TABLE … SET TABLESPACE ts`, introspect/catalog-relation-settings.ts) and as CREATE INDEX and
// CREATE MATERIALIZED VIEW say TABLESPACE. Pure.
// - A partition made without TABLESPACE goes where its parent is (PostgreSQL 12+), whatever
//   default_tablespace says: under a parent in a tablespace, CREATE TABLE … PARTITION OF says its own.
// - Citus makes no shard in a tablespace (CREATE INDEX … TABLESPACE and ALTER INDEX … SET
//   TABLESPACE on a Citus table are refused; a table's shards go to the workers' default): a
//   Citus table or index in one is a plan problem, never a silent difference.
import {
  idOf,
  partitionParent,
  partitionQname,
  type ClusterModel,
  type Partition,
  type Table,
} from '../../model/types.js';
import { tryParseStatements, type Node } from '../../sql/pg-parse.js';
import { quoteIdent, type QualifiedName } from '../../sql/quote.js';
import { defaultKeyName } from '../../model/key-names.js';
import type { Key } from '../../model/key-types.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { indexRef, relationRef } from '../../model/object-ref.js';
import { sameObject, type RecordedObject } from '../same-object.js';

/** The tablespace an `ALTER … SET TABLESPACE x` statement names, quoted; undefined for any other. */
export function tablespaceOf(statement: string | undefined): string | undefined {
  if (statement === undefined) return undefined;
  const cmd = tryParseStatements(statement)?.[0]?.stmt?.AlterTableStmt?.cmds?.[0]?.AlterTableCmd;
  return cmd?.subtype === 'AT_SetTableSpace' && typeof cmd.name === 'string' ? quoteIdent(cmd.name) : undefined;
}

const objectTablespace = (m: ClusterModel, relation: string, at: 'create' | 'drop'): string | undefined =>
  tablespaceOf(m.objects[`tablespace ${relation}`]?.[at]?.[0]);

/**
 * The TABLESPACE a new partition's CREATE says: where its parent is in one now, the partition's
 * own (its desired 'tablespace' object) or the database's (what the parent's object gives back).
 */
export function partitionTablespace(
  desired: ClusterModel,
  actual: ClusterModel,
  t: Table,
  p: Partition,
): string | undefined {
  const parent = idOf(partitionParent(t, p));
  const database = objectTablespace(actual, parent, 'drop');
  if (database === undefined) return undefined;
  return objectTablespace(desired, idOf(partitionQname(t, p)), 'create') ?? database;
}

const citusTable = (t: Table | undefined): boolean => t !== undefined && t.distribution.kind !== 'local';

/** A declared Citus table, or its partition's, or an index on one, in a tablespace. */
export function citusTablespaceProblems(desired: ClusterModel): DiffProblem[] {
  const relations = new Map<string, Table>();
  for (const t of Object.values(desired.tables)) {
    if (!citusTable(t)) continue;
    relations.set(t.id, t);
    for (const p of t.partitions ?? []) relations.set(idOf(partitionQname(t, p)), t);
  }
  const problems: DiffProblem[] = [];
  for (const o of Object.values(desired.objects)) {
    const on = o.parent?.startsWith('relation ') ? o.parent.slice('relation '.length) : undefined;
    const table =
      o.kind === 'tablespace'
        ? (relations.get(o.name) ?? (on !== undefined ? relations.get(on) : undefined))
        : o.kind === 'index' && on !== undefined && relations.has(on) && o.create.some(saysTablespace)
          ? relations.get(on)
          : undefined;
    if (table === undefined) continue;
    problems.push({
      code: 'citus_tablespace',
      object: o.id,
      ...(o.source !== undefined ? { where: o.source } : {}),
      message: `puts ${o.kind === 'index' ? 'an index' : o.name} of Citus table ${table.id} in a tablespace: Citus creates no shard there (its shards go to the workers' default tablespace, and it refuses CREATE INDEX … TABLESPACE and ALTER INDEX … SET TABLESPACE on a Citus table); leave the tablespace out`,
    });
  }
  return problems;
}

const saysTablespace = (statement: string): boolean =>
  (tryParseStatements(statement) ?? []).some((r: Node) => typeof r.stmt?.IndexStmt?.tableSpace === 'string');

/** The relations (tables, partitions, indexes) the cluster holds, by id: a tablespace set on one moves its files. */
function relationsOf(actual: ClusterModel): Set<string> {
  const out = new Set<string>();
  const index = (schema: string, name: string | undefined): void => {
    if (name !== undefined) out.add(idOf({ schema, name }));
  };
  for (const t of Object.values(actual.tables)) {
    const schema = t.qname.schema;
    // A partitioned table and its own indexes hold no rows: SET TABLESPACE writes the catalog alone.
    if (t.partitionBy === undefined) {
      out.add(t.id);
      for (const k of [t.primaryKey, ...t.unique, ...t.indexes]) index(schema, k?.name);
    }
    for (const p of t.partitions ?? []) {
      const q = partitionQname(t, p);
      if (p.partitionBy === undefined) out.add(idOf(q));
      for (const i of p.indexes ?? []) index(q.schema, i.name);
    }
  }
  for (const o of Object.values(actual.objects)) {
    if (o.kind === 'index') out.add(o.name);
    // An EXCLUDE constraint's index has its name, in its table's schema (`app.t.c`: app.c).
    if (o.kind === 'exclusion constraint') out.add(o.name.replace(/\.[^.]+(?=\.[^.]+$)/, ''));
  }
  return out;
}

/**
 * The steps, each that sets the tablespace of a relation the cluster holds marked `moves` (its
 * files are copied under ACCESS EXCLUSIVE: `rewrites_table`). One the plan makes is empty: moving
 * it costs nothing worth a hazard.
 */
export function withTablespaceMoves(steps: readonly Step[], actual: ClusterModel): Step[] {
  const held = relationsOf(actual);
  return steps.map((s) =>
    (s.kind === 'create_object' || s.kind === 'alter_object') &&
    s.objectKind === 'tablespace' &&
    held.has(s.object.slice('tablespace '.length))
      ? { ...s, moves: true }
      : s,
  );
}

/**
 * The steps without the prune of a sequence's own persistence where the plan changes its table's:
 * ALTER TABLE … SET LOGGED / UNLOGGED sets the table's owned sequences too, which is what the
 * manifest then says (the prune's statement, read before, would set the table's former one).
 */
export function withoutFollowedSequenceDrops(steps: readonly Step[]): Step[] {
  const changed = new Set(steps.flatMap((s) => (s.kind === 'alter_table_persistence' ? [relationRef(s.table)] : [])));
  return steps.filter(
    (s) => !(s.kind === 'drop_object' && s.objectKind === 'sequence persistence' && s.parent && changed.has(s.parent)),
  );
}

/** The tablespace a declared index is made in (CREATE INDEX … TABLESPACE, or a key's 'tablespace' object), quoted. */
function indexTablespace(desired: ClusterModel, index: string): string | undefined {
  const made = desired.objects[indexRef(index)]?.create[0];
  const said = made === undefined ? undefined : tryParseStatements(made)?.[0]?.stmt?.IndexStmt?.tableSpace;
  return typeof said === 'string' ? quoteIdent(said) : objectTablespace(desired, index, 'create');
}

/**
 * The 'tablespace' objects of partitions' indexes as the diff compares them. The catalog names
 * one only where it differs from its parent index's (a new one goes where its parent is), so:
 * - a declared one that is its parent's (declared) tablespace is left out: else planned again and again;
 * - where the parent index is made again, its partitions' are made again with it, in its
 *   tablespace: the cluster's are left out, and a declared one comes after the parent;
 * - where a key's index is moved in place, those that follow it are moved too (desired anew).
 */
export function partitionIndexTablespaces(
  desired: ClusterModel,
  actual: ClusterModel,
  recorded: Readonly<Record<string, RecordedObject>>,
): { desired: ClusterModel; actual: ClusterModel } {
  const database =
    Object.values(actual.objects)
      .filter((o) => o.kind === 'tablespace')
      .map((o) => tablespaceOf(o.drop?.[0]))
      .find((x) => x !== undefined) ?? 'pg_default';
  const parents = new Map<string, string>();
  for (const t of Object.values(actual.tables))
    for (const p of t.partitions ?? []) {
      const schema = partitionQname(t, p).schema;
      for (const i of p.indexes ?? [])
        parents.set(idOf({ schema, name: i.name }), idOf({ schema: t.qname.schema, name: i.parent }));
    }
  if (parents.size === 0) return { desired, actual };
  const remade = (parent: string): boolean => {
    const [d, a] = [desired.objects[indexRef(parent)], actual.objects[indexRef(parent)]];
    return d !== undefined && a !== undefined && !sameObject(d, a, recorded[d.id]);
  };
  const dObjects = { ...desired.objects };
  const aObjects = { ...actual.objects };
  for (const [child, parent] of parents) {
    const id = `tablespace ${child}`;
    const d = dObjects[id];
    if (
      d !== undefined &&
      objectTablespace(desired, child, 'create') === (indexTablespace(desired, parent) ?? database)
    )
      delete dObjects[id];
    else if (d !== undefined && remade(parent)) dObjects[id] = { ...d, deps: [...d.deps, indexRef(parent)] };
    if (remade(parent)) delete aObjects[id];
    // A key's index moved in place (ALTER INDEX … SET TABLESPACE moves the parent's alone): its
    // partitions' that follow it are moved with it.
    const to = objectTablespace(desired, parent, 'create') ?? database;
    if (dObjects[id] === undefined && to !== (objectTablespace(actual, parent, 'create') ?? database))
      dObjects[id] = {
        id,
        kind: 'tablespace',
        name: child,
        create: [`ALTER INDEX ${child} SET TABLESPACE ${to}`],
        deps: [indexRef(child)],
        provides: [],
      };
  }
  return { desired: { ...desired, objects: dObjects }, actual: { ...actual, objects: aObjects } };
}

/**
 * The steps, each key they make with USING INDEX TABLESPACE where a 'tablespace' object puts its
 * index: a partitioned table's partitions then make their copies of it there too (ALTER INDEX …
 * SET TABLESPACE after would move the parent's alone).
 */
export function withKeyTablespaces(steps: readonly Step[], desired: ClusterModel): Step[] {
  const placed = (table: QualifiedName, kind: 'primary' | 'unique', key: Key): Key => {
    const name = key.name ?? defaultKeyName(table.name, kind, key);
    const tablespace = objectTablespace(desired, idOf({ schema: table.schema, name }), 'create');
    return tablespace !== undefined ? { ...key, tablespace } : key;
  };
  return steps.map((s) => {
    if (s.kind === 'add_primary_key' || s.kind === 'add_unique')
      return { ...s, key: placed(s.table, s.kind === 'add_primary_key' ? 'primary' : 'unique', s.key) };
    if (s.kind !== 'create_table') return s;
    return {
      ...s,
      ...(s.primaryKey ? { primaryKey: placed(s.table, 'primary', s.primaryKey) } : {}),
      unique: s.unique.map((u) => placed(s.table, 'unique', u)),
    };
  });
}
