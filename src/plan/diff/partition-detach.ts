// A table the manifest declares as a table of its own that is a partition in the cluster: ALTER
// TABLE parent DETACH PARTITION child, first of all, and the rest of the plan is made against the
// cluster as it is after the detach. The child keeps its rows and what PostgreSQL gave it as a
// partition: the parent's columns (defaults too), its keys and indexes under names chosen for the
// child (`child_pkey`, `child_a_b_key`, `child_a_idx`), its foreign keys and CHECK constraints
// under their own names; the partition's own keys, foreign keys, column defaults, NOT NULLs,
// COMPRESSION, statistics targets and attribute options become the table's (its table's targets
// and options, set with ONLY, never reached it); its own indexes, triggers and grants stay.
// On Citus, a partition of a distributed table stays distributed, colocated with its former
// parent (docs/citus-facts.md).
import {
  idOf,
  partitionParent,
  partitionQname,
  type ClusterModel,
  type Index,
  type Key,
  type Partition,
  type SqlObject,
  type Table,
} from '../../model/types.js';
import { quoteIdent, type QualifiedName } from '../../sql/quote.js';
import { keyOfStatement } from '../../objects/alter-table.js';
import { renderSql } from '../steps/step-spec.js';
import type { Step } from '../steps/steps.js';
import { dictOf } from '../../util/dict.js';
import { indexRef, relationRef } from '../../model/object-ref.js';

// PostgreSQL truncates longer names (ChooseRelationName): then the child's names are not known here.
const MAX_NAME = 63;

/** The name PostgreSQL chooses for a cloned key or index of `child` (ChooseIndexName). */
function childName(child: string, columns: readonly string[], suffix: string): string | undefined {
  const name = suffix === 'pkey' ? `${child}_pkey` : `${child}_${columns.join('_')}_${suffix}`;
  return Buffer.byteLength(name) <= MAX_NAME ? name : undefined;
}

const renamedKey = (k: Key, child: string, suffix: string): Key => {
  const name = childName(child, k.columns, suffix);
  return { ...k, ...(name !== undefined ? { name } : {}) };
};
const renamedIndex = (ix: Index, child: string): Index => {
  const name = childName(child, ix.columns, 'idx');
  const { name: _old, ...rest } = ix;
  return name !== undefined ? { ...rest, name } : rest;
};

/** The parent's CHECK constraints as the detached child holds them (local, under the same names). */
function childChecks(parent: Table, child: QualifiedName, objects: ClusterModel['objects']): SqlObject[] {
  const out: SqlObject[] = [];
  const childId = idOf(child);
  for (const o of Object.values(objects)) {
    if (o.kind !== 'check constraint' || o.parent !== relationRef(parent.id)) continue;
    const con = o.name.slice(parent.id.length + 1);
    const prefix = `ALTER TABLE ${parent.id} ADD CONSTRAINT ${con} `;
    const create = o.create[0];
    if (create === undefined || !create.startsWith(prefix)) continue;
    const name = `${childId}.${con}`;
    out.push({
      ...o,
      id: `check constraint ${name}`,
      name,
      parent: relationRef(childId),
      create: [`ALTER TABLE ${childId} ADD CONSTRAINT ${con} ${create.slice(prefix.length)}`],
      drop: [`ALTER TABLE ${childId} DROP CONSTRAINT ${con}`],
      deps: o.deps.map((d) => (d === relationRef(parent.id) ? relationRef(childId) : d)),
    });
  }
  return out;
}

/**
 * The partition's own indexes (SQL objects while it is a partition) that the manifest declares on
 * the table it becomes: the same CREATE INDEX as the declared index renders.
 */
function ownIndexes(t: Table, objects: Record<string, SqlObject>): Index[] {
  const out: Index[] = [];
  for (const ix of t.indexes) {
    if (ix.name === undefined) continue;
    const id = indexRef({ schema: t.qname.schema, name: ix.name });
    const o = objects[id];
    if (o?.parent !== relationRef(t.id)) continue;
    if (o.create.join('\n') !== renderSql({ kind: 'create_index', table: t.qname, index: ix }).join('\n')) continue;
    delete objects[id];
    out.push(ix);
  }
  return out;
}

/**
 * The partition's own column default, NOT NULL, COMPRESSION, SET STATISTICS or SET (…) (as the
 * catalog prints them) on the table it becomes.
 */
function withOwnColumn(t: Table, o: SqlObject): Table {
  const name =
    o.kind === 'column setting' ? o.name.slice(t.id.length + 1).replace(/ \w+$/, '') : o.name.slice(t.id.length + 1);
  const statement = o.create[0]!;
  const at = statement.indexOf(' SET DEFAULT ');
  const columns = (t.columns ?? []).map((c) => {
    if (quoteIdent(c.name) !== name) return c;
    if (o.kind === 'not null') return { ...c, notNull: true };
    if (o.kind === 'column setting') {
      const stats = / SET STATISTICS (\d+)$/.exec(statement)?.[1];
      if (stats !== undefined) return { ...c, statistics: Number(stats) };
      const opts = / SET \((.*)\)$/.exec(statement)?.[1];
      if (opts === undefined) return c;
      const pairs = opts.split(', ').map((x) => [x.slice(0, x.indexOf('=')), x.slice(x.indexOf('=') + 1)] as const);
      return { ...c, options: Object.fromEntries(pairs) };
    }
    if (o.kind === 'column compression') {
      const { compression: _c, ...plain } = c;
      const method = /SET COMPRESSION (\w+)$/.exec(statement)?.[1];
      return method === undefined || method === 'default' ? plain : { ...plain, compression: method };
    }
    const { default: _d, ...rest } = c;
    return at === -1 ? rest : { ...rest, default: statement.slice(at + ' SET DEFAULT '.length) };
  });
  return { ...t, columns };
}

/**
 * The partition's own keys and foreign keys (SQL objects while it is a partition) as keys of the
 * table it becomes, taken out of `objects`.
 */
function withOwnKeys(t: Table, objects: Record<string, SqlObject>): Table {
  let out = t;
  for (const o of Object.values(objects)) {
    if (o.parent !== relationRef(t.id) || o.create.length !== 1) continue;
    const setting = o.kind === 'column setting' && / (statistics|options)$/.test(o.name);
    if (o.kind === 'column default' || o.kind === 'not null' || o.kind === 'column compression' || setting) {
      delete objects[o.id];
      out = withOwnColumn(out, o);
      continue;
    }
    if (o.kind !== 'primary key' && o.kind !== 'unique constraint' && o.kind !== 'foreign key') continue;
    const k = keyOfStatement(o.create[0]!, 'public');
    if (!k) continue;
    delete objects[o.id];
    if (k.kind === 'foreign key') out = { ...out, foreignKeys: [...out.foreignKeys, k.fk] };
    else if (k.kind === 'primary key') out = { ...out, primaryKey: k.key };
    else out = { ...out, unique: [...out.unique, k.key] };
  }
  return out;
}

/** The partitions of a table below one of its partitions (`id`), at every level. */
function subtree(parent: Table, id: string): Partition[] {
  const ids = new Set([id]);
  const out: Partition[] = [];
  for (const p of parent.partitions ?? [])
    if (p.of !== undefined && ids.has(idOf(p.of))) {
      out.push(p);
      ids.add(idOf(partitionQname(parent, p)));
    }
  return out;
}

/** DETACH PARTITION steps, and the cluster as it is once they ran. */
export function detachPartitions(desired: ClusterModel, actual: ClusterModel): { actual: ClusterModel; steps: Step[] } {
  const steps: Step[] = [];
  const tables = dictOf<Table>(actual.tables);
  const objects = dictOf<SqlObject>(actual.objects);
  for (const t of Object.values(desired.tables)) {
    if (actual.tables[t.id]) continue;
    const parent = Object.values(tables).find((x) =>
      (x.partitions ?? []).some((p) => idOf(partitionQname(x, p)) === t.id),
    );
    if (!parent) continue;
    const part = parent.partitions!.find((p) => idOf(partitionQname(parent, p)) === t.id)!;
    steps.push({ kind: 'detach_partition', table: partitionParent(parent, part), partition: t.qname });
    // A partitioned partition goes with its own partitions: they become the new table's.
    const below = subtree(parent, t.id);
    tables[parent.id] = { ...parent, partitions: parent.partitions!.filter((p) => p !== part && !below.includes(p)) };
    const own = below.map((p) => {
      if (p.of === undefined || idOf(p.of) !== t.id) return p;
      const { of: _of, ...top } = p;
      return top;
    });
    const child = t.qname.name;
    const { partitions: _p, partitionBy: _b, size: _s, accessMethod: _a, columnarOptions: _c, ...rest } = parent;
    tables[t.id] = withOwnKeys(
      {
        ...rest,
        // A partition is made with no statistics target or attribute options of its own: its table's are set with ONLY.
        ...(rest.columns ? { columns: rest.columns.map(({ statistics: _t, options: _o, ...c }) => c) } : {}),
        id: t.id,
        qname: t.qname,
        ...(parent.primaryKey ? { primaryKey: renamedKey(parent.primaryKey, child, 'pkey') } : {}),
        unique: parent.unique.map((k) => renamedKey(k, child, 'key')),
        indexes: [...parent.indexes.map((ix) => renamedIndex(ix, child)), ...ownIndexes(t, objects)],
        ...(part.accessMethod ? { accessMethod: part.accessMethod } : {}),
        ...(part.partitionBy
          ? {
              partitionBy: part.partitionBy,
              partitions: own,
              ...(part.partitionKeyTypes ? { partitionKeyTypes: part.partitionKeyTypes } : {}),
            }
          : {}),
      },
      objects,
    );
    for (const o of childChecks(parent, t.qname, actual.objects)) objects[o.id] = o;
  }
  return steps.length === 0 ? { actual, steps } : { actual: { ...actual, tables, objects }, steps };
}
