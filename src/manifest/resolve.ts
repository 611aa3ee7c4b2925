// Turns a schema-valid manifest into the desired model, enforcing the cross-field rules of
// the manifest reference (docs/manifest.md). Problems are collected with their path; nothing here touches a database.
import { keyColumnsOf, keyColumnsPath, modelKey } from './schema-table.js';
import {
  idOf,
  type ColocationGroup,
  type Column,
  type ForeignKey,
  type Table,
  type ClusterModel,
} from '../model/types.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import { resolveRoutines, type RoutineInfo } from './resolve-routines.js';
import { resolveBench, type BenchSpec, type SpecParam } from './resolve-bench.js';
import { checkForeignKeys } from './resolve-keys.js';
import type { Manifest } from './schema.js';
import { resolveSqlObjects } from './resolve-sql.js';
import { checkPartitionKeys } from './resolve-partition-keys.js';
import { renameProblems } from './resolve-renames.js';
import { storageParameters } from './resolve-storage-parameters.js';
import { didYouMean } from './suggest.js';
import { typeTypoProblems } from './type-typos.js';
import { resolveColumn } from './resolve-column.js';
import { resolveSequences } from './resolve-sequences.js';
import { checkColumnsExist, checkKeysHaveColumn, checkSchemas, kindsOf, otherDistribution } from './table-rules.js';
import { parseQualifiedKey } from '../sql/quote.js';
import { resolveLayout } from './resolve-layout.js';
import { typedTable } from './resolve-typed.js';
import { expandInheritance, inheritedColumnNames } from './resolve-inherits.js';
import { checkMultiLevelOnCitus } from './resolve-partitions.js';
import { withIsolatedTenants } from './resolve-isolation.js';
import { qualifiedKey, type ResolveIo, type TableContext } from './resolve-context.js';
import { dict } from '../util/dict.js';

export interface ResolvedManifest {
  readonly desired: ClusterModel;
  readonly routineInfo: Readonly<Record<string, RoutineInfo>>;
  /** The manifest key of each table and sequence, by id: where a plan's problem about one is. */
  readonly keys: { readonly tables: ReadonlyMap<string, string>; readonly sequences: ReadonlyMap<string, string> };
  readonly bench?: BenchSpec<SpecParam>;
}

function resolveTables(m: Manifest, problems: ProblemList): TableContext {
  const defaultSchema = m.defaults.schema;
  const tables = dict<Table>();
  const keyOf = new Map<string, string>();
  const idOfKey = new Map<string, string>();
  const members = new Map<string, string[]>();
  const implicitShards = new Map<string, number>();
  const distColumnType = new Map<string, string>();
  const inheritedNames = inheritedColumnNames(m, defaultSchema);

  for (const [key, t] of Object.entries(m.tables)) {
    const path: Path = ['tables', key];
    const q = qualifiedKey(key, defaultSchema, path, problems, 'table');
    if (!q) continue;
    const id = idOf(q);
    if (tables[id]) {
      problems.error(
        path,
        'duplicate_name',
        `declares table ${id} a second time (first as ${JSON.stringify(keyOf.get(id))})`,
        true,
      );
      continue;
    }
    const kinds = kindsOf(t);
    if (kinds.length > 1)
      problems.error(
        path,
        'conflicting_kind',
        `a table is at most one of distributed, reference, local and single_shard; this one is ${kinds.join(' and ')}`,
      );
    if (t.distributed_by === undefined) {
      if (t.colocation !== undefined)
        problems.error(
          [...path, 'colocation'],
          'needs_distributed_by',
          'colocation needs distributed_by: only hash-distributed tables join colocation groups',
        );
      if (t.shard_count !== undefined)
        problems.error([...path, 'shard_count'], 'needs_distributed_by', 'shard_count needs distributed_by');
    }
    if (t.colocation !== undefined && t.shard_count !== undefined) {
      problems.error(
        [...path, 'shard_count'],
        'shard_count_with_colocation',
        `shard_count conflicts with colocation: the group's shard count applies (set colocation.${t.colocation}.shard_count)`,
      );
    }
    let columns: Column[] | undefined;
    if (t.columns) {
      columns = [];
      for (const [cname, spec] of Object.entries(t.columns)) {
        const col = resolveColumn(cname, spec, [...path, 'columns', cname], problems);
        // A primary key makes its columns NOT NULL (PostgreSQL refuses DROP NOT NULL on them).
        if (col)
          columns.push(
            (t.primary_key ? keyColumnsOf(t.primary_key).includes(cname) : false) ? { ...col, notNull: true } : col,
          );
      }
    }
    const known = t.columns ? new Set([...(inheritedNames.get(key) ?? []), ...Object.keys(t.columns)]) : undefined;
    if (t.primary_key)
      checkColumnsExist(
        keyColumnsOf(t.primary_key),
        known,
        keyColumnsPath(t.primary_key, [...path, 'primary_key']),
        problems,
      );
    (t.unique ?? []).forEach((u, i) =>
      checkColumnsExist(keyColumnsOf(u), known, keyColumnsPath(u, [...path, 'unique', i]), problems),
    );
    (t.indexes ?? []).forEach((ix, i) =>
      checkColumnsExist(ix.columns, known, [...path, 'indexes', i, 'columns'], problems),
    );
    renameProblems(t, known, path, problems);

    let distribution: Table['distribution'] = { kind: 'local' };
    if (t.distributed_by !== undefined && !m.schemas[q.schema]?.distributed) {
      const col = t.distributed_by;
      if (known && !known.has(col)) {
        const near = [...known].find((k) => k.toLowerCase() === col.toLowerCase());
        problems.error(
          [...path, 'distributed_by'],
          'unknown_column',
          `distribution column ${JSON.stringify(col)} is not a column of this table${near ? ` (names are case-sensitive: did you mean ${JSON.stringify(near)}?)` : didYouMean(col, known)}`,
        );
      }
      const group = t.colocation ?? id;
      if (t.colocation !== undefined && !m.colocation[t.colocation]) {
        problems.error(
          [...path, 'colocation'],
          'unknown_group',
          `colocation group ${JSON.stringify(t.colocation)} is not declared under colocation${didYouMean(t.colocation, Object.keys(m.colocation))}`,
        );
      } else if (t.colocation === undefined) {
        implicitShards.set(group, t.shard_count ?? m.defaults.shard_count);
      }
      members.set(group, [...(members.get(group) ?? []), id]);
      const ctype = columns?.find((c) => c.name === col)?.type.base;
      if (ctype) distColumnType.set(id, ctype);
      distribution = { kind: 'hash', column: col, group };
      checkKeysHaveColumn(t, col, path, problems);
    } else distribution = otherDistribution(t, m.schemas[q.schema]?.distributed ? q.schema : undefined, path, problems);

    tables[id] = {
      id,
      qname: q,
      ...(columns ? { columns } : {}),
      ...(t.unlogged ? { unlogged: true } : {}),
      ...typedTable(t, path, defaultSchema, problems),
      ...(t.online ? { online: true } : {}),
      ...(t.renamed_from !== undefined ? { renamedFrom: t.renamed_from } : {}),
      ...resolveLayout(t, columns, path, problems, q.schema),
      ...storageParameters(t, path, problems),
      ...(t.primary_key ? { primaryKey: modelKey(t.primary_key) } : {}),
      unique: (t.unique ?? []).map(modelKey),
      indexes: (t.indexes ?? []).map((ix) => ({
        ...(ix.name ? { name: ix.name } : {}),
        columns: ix.columns,
        unique: ix.unique ?? false,
        using: ix.using ?? 'btree',
        ...(ix.renamed_from !== undefined ? { renamedFrom: ix.renamed_from } : {}),
      })),
      foreignKeys: [],
      distribution,
    };
    checkMultiLevelOnCitus(tables[id]!, path, problems);
    keyOf.set(id, key);
    idOfKey.set(key, id);
  }
  // A table renamed from one the manifest declares too would be two tables of one.
  for (const [id, t] of Object.entries(tables))
    if (t.renamedFrom !== undefined && tables[idOf({ schema: t.qname.schema, name: t.renamedFrom })])
      problems.error(
        ['tables', keyOf.get(id)!, 'renamed_from'],
        'rename_conflict',
        `renamed_from: ${t.renamedFrom} names a table this manifest declares too: rename one or the other, not both`,
      );

  Object.assign(tables, expandInheritance(m, tables, idOfKey, defaultSchema, problems));

  const lookup = (ref: string): string | undefined => {
    if (idOfKey.has(ref)) return idOfKey.get(ref);
    const q = parseQualifiedKey(ref, defaultSchema);
    return 'error' in q ? undefined : tables[idOf(q)] ? idOf(q) : undefined;
  };

  const groups = dict<ColocationGroup>();
  const groupColumnType = new Map<string, { type: string; table: string }>();
  for (const [name, g] of Object.entries(m.colocation)) {
    const list = members.get(name) ?? [];
    if (list.length === 0) {
      problems.warn(
        ['colocation', name],
        'empty_group',
        `colocation group ${JSON.stringify(name)} has no member tables`,
      );
      continue;
    }
    let anchor = list[0]!;
    if (g.anchor !== undefined) {
      const a = lookup(g.anchor);
      if (!a || !list.includes(a)) {
        problems.error(
          ['colocation', name, 'anchor'],
          'anchor_not_member',
          `anchor ${JSON.stringify(g.anchor)} is not a member of group ${JSON.stringify(name)} (members: ${list.map((i) => keyOf.get(i)).join(', ')})`,
        );
      } else anchor = a;
    }
    groups[name] = {
      name,
      shardCount: g.shard_count ?? m.defaults.shard_count,
      anchor,
      members: [anchor, ...list.filter((i) => i !== anchor)],
    };
  }
  for (const [name, shards] of implicitShards)
    groups[name] = { name, shardCount: shards, anchor: name, members: [name] };

  for (const g of Object.values(groups)) {
    for (const member of g.members) {
      const type = distColumnType.get(member);
      if (!type) continue;
      const first = groupColumnType.get(g.name);
      if (!first) {
        groupColumnType.set(g.name, { type, table: member });
        continue;
      }
      if (first.type !== type) {
        const firstTable = tables[first.table]!;
        const t = tables[member]!;
        const col = (x: Table) => (x.distribution.kind === 'hash' ? x.distribution.column : '');
        problems.error(
          ['tables', keyOf.get(member)!, 'distributed_by'],
          'colocation_type_mismatch',
          `colocation group ${JSON.stringify(g.name)} mixes distribution column types: ${keyOf.get(first.table)}.${col(firstTable)} is ${first.type}, ${keyOf.get(member)}.${col(t)} is ${type}; Citus colocates only identical types`,
        );
      }
    }
  }
  withIsolatedTenants(m, groups, groupColumnType, problems);
  return { tables, keyOf, groups, groupColumnType, defaultSchema, lookup };
}

/** Resolves a schema-valid manifest into the desired model, reporting rule violations. */
export function resolveManifest(m: Manifest, io: ResolveIo, problems: ProblemList): ResolvedManifest {
  checkSchemas(m, problems);
  const ctx = resolveTables(m, problems);
  const withFks = checkForeignKeys(m, ctx, problems);
  const sequences = resolveSequences(m, ctx, problems);
  const { routines, info } = resolveRoutines(m, ctx, io, problems);
  const { objects, schemas: objectSchemas, ...ops } = resolveSqlObjects(m, ctx.defaultSchema, io, problems, routines);
  checkPartitionKeys(objects, withFks, problems, m.sql);
  typeTypoProblems(m, objects, problems);
  const bench = m.bench && resolveBench(m.bench, problems, { defaultSchema: ctx.defaultSchema, tables: m.tables });
  const schemas = [
    ...new Set([
      ctx.defaultSchema,
      ...Object.keys(m.schemas),
      ...Object.values(withFks).flatMap((t) => [
        t.qname.schema,
        ...(t.partitions ?? []).flatMap((p) => p.schema ?? []),
      ]),
      ...Object.values(sequences).map((s) => s.qname.schema),
      ...Object.values(routines).map((r) => r.qname.schema),
      ...objectSchemas,
    ]),
  ];
  return {
    desired: {
      schemas,
      distributedSchemas: Object.keys(m.schemas).filter((n) => m.schemas[n]!.distributed),
      plainSchemas: Object.keys(m.schemas).filter((n) => m.schemas[n]!.distributed === false),
      tables: withFks,
      groups: ctx.groups,
      sequences,
      routines,
      objects,
      ...ops, // (privilegeOps, when the files hold a GRANT)
    },
    routineInfo: info,
    keys: {
      tables: ctx.keyOf,
      sequences: new Map(
        Object.keys(m.sequences).flatMap((k) => {
          const q = parseQualifiedKey(k, ctx.defaultSchema);
          return 'error' in q ? [] : [[idOf(q), k] as const];
        }),
      ),
    },
    ...(bench ? { bench } : {}),
  };
}

export type { ForeignKey };
