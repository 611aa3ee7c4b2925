// Layout: distributed schemas, access methods, partitions and time partitions of declared
// tables. Pure: the clock time partitions are kept by is an argument.
import { foreignPartitionSteps } from './foreign-partitions.js';
import { parameterChanges } from '../../model/storage-parameters.js';
import {
  idOf,
  partitionParent,
  partitionQname,
  type ClusterModel,
  type Partition,
  type SqlObject,
  type Table,
  type TimePartitions,
} from '../../model/types.js';
import { tryParseStatements } from '../../sql/pg-parse.js';
import { samePartitionKey } from '../../sql/partition-key.js';
import { attachPartition } from './partition-attach.js';
import { addInterval, boundDate, parseBound, sameBound, timestampText } from '../../sql/partition-bound.js';
import { quoteQualified, type QualifiedName } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { columnarOptionSteps } from './columnar.js';
import { schemaRef } from '../../model/object-ref.js';
import { partitionTablespace } from './tablespaces.js';

/** Steps that distribute or undistribute schemas (schema-based sharding). */
export function schemaSteps(desired: ClusterModel, actual: ClusterModel, problems: DiffProblem[]): Step[] {
  const want = new Set(desired.distributedSchemas ?? []);
  const have = new Set(actual.distributedSchemas ?? []);
  const steps: Step[] = [];
  for (const schema of want) {
    if (have.has(schema)) continue;
    const inside = Object.values(actual.tables).filter((t) => t.qname.schema === schema);
    // "distributed schema cannot have distributed tables" (Citus refuses before converting anything).
    const citus = inside.filter((t) => t.distribution.kind !== 'local');
    if (citus.length > 0) {
      problems.push({
        code: 'schema_has_citus_tables',
        object: schemaRef(schema),
        message: `cannot be distributed while it holds ${citus.map((t) => `${t.distribution.kind} table ${t.id}`).join(', ')}: undistribute them first (citus_schema_distribute refuses)`,
      });
      continue;
    }
    steps.push({ kind: 'distribute_schema', schema, copiesData: inside.length > 0 });
    // "The local data in the table is no longer visible, but is still on disk."
    for (const t of inside) steps.push({ kind: 'truncate_local_data', table: t.qname });
  }
  for (const schema of have) {
    if (want.has(schema)) continue;
    const declaredPlain = (desired.plainSchemas ?? []).includes(schema);
    if (declaredPlain) {
      steps.push({ kind: 'undistribute_schema', schema });
      continue;
    }
    const declared = Object.values(desired.tables).filter((t) => t.qname.schema === schema);
    if (declared.length > 0)
      problems.push({
        code: 'distributed_schema_undeclared',
        object: schemaRef(schema),
        message: `is a distributed schema in the cluster, and the manifest declares its tables ${declared.map((t) => t.id).join(', ')} without saying so: declare \`schemas: {${schema}: {distributed: true}}\` (or \`false\` to undistribute it)`,
      });
  }
  return steps;
}

const am = (x: { accessMethod?: string }): string => x.accessMethod ?? 'heap';

/** A partition's qualified name (in its parent's schema). */
const partName = (t: Table, p: Partition): QualifiedName => partitionQname(t, p);

/** The partitions time partitions keep: RANGE partitions whose upper bound is a time. */
function timeParts(a: Table): { p: Partition; upper: Date }[] {
  return (a.partitions ?? []).flatMap((p) => {
    if (p.of !== undefined) return [];
    const b = parseBound(p.bound);
    const upper = b?.kind === 'range' && b.to.length === 1 ? boundDate(b.to[0]!) : undefined;
    return upper ? [{ p, upper }] : [];
  });
}

function timePartitionSteps(t: Table, a: Table | undefined, tp: TimePartitions, now: Date): Step[] {
  const steps: Step[] = [];
  const parts = a ? timeParts(a) : [];
  const endAt = addInterval(now, tp.interval, tp.premake);
  const last = Math.max(...parts.map((x) => x.upper.getTime()), -Infinity);
  if (last < endAt.getTime())
    steps.push({ kind: 'create_time_partitions', table: t.qname, interval: tp.interval, endAt: timestampText(endAt) });
  const dropped = new Set<string>();
  if (tp.retention !== undefined) {
    const olderThan = addInterval(now, tp.retention, -1);
    const old = parts.filter((x) => x.upper.getTime() <= olderThan.getTime()).map((x) => x.p.name);
    old.forEach((n) => dropped.add(n));
    if (old.length > 0)
      steps.push({
        kind: 'drop_old_time_partitions',
        table: t.qname,
        olderThan: timestampText(olderThan),
        partitions: old.map((n) => quoteQualified({ schema: t.qname.schema, name: n })),
      });
  }
  if (tp.columnarAfter !== undefined) {
    const olderThan = addInterval(now, tp.columnarAfter, -1);
    const old = parts
      .filter((x) => x.upper.getTime() <= olderThan.getTime() && am(x.p) !== 'columnar' && !dropped.has(x.p.name))
      .map((x) => x.p.name);
    if (old.length > 0)
      steps.push({
        kind: 'set_old_partitions_access_method',
        table: t.qname,
        olderThan: timestampText(olderThan),
        accessMethod: 'columnar',
        partitions: old.map((n) => quoteQualified({ schema: t.qname.schema, name: n })),
      });
  }
  return steps;
}

/**
 * Access method, partitioning and partitions of each declared table; `created` are the tables
 * this plan creates. Returns steps, the partitions the manifest does not declare, and the tables
 * of their own that are attached as partitions.
 */
/** A materialized view declared USING columnar (CREATE MATERIALIZED VIEW … USING columnar AS …). */
const columnarMatview = (o: SqlObject): boolean =>
  o.kind === 'materialized view' &&
  o.create.some((sql) =>
    (tryParseStatements(sql) ?? []).some((st) => st?.stmt?.CreateTableAsStmt?.into?.accessMethod === 'columnar'),
  );

export function layoutSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  created: ReadonlySet<string>,
  opts: { prune: boolean; now: Date },
  problems: DiffProblem[],
): { steps: Step[]; unmanaged: string[]; attached: string[] } {
  const steps: Step[] = [];
  const unmanaged: string[] = [];
  const attached: string[] = []; // tables of their own that become partitions: not pruned
  const usesColumnar =
    Object.values(desired.tables).some(
      (t) =>
        t.accessMethod === 'columnar' ||
        t.timePartitions?.columnarAfter !== undefined ||
        (t.partitions ?? []).some((p) => p.accessMethod === 'columnar'),
    ) || Object.values(desired.objects).some(columnarMatview);
  if (usesColumnar && !actual.columnar) steps.push({ kind: 'create_columnar_extension' });
  // alter_table_set_access_method: "cannot complete operation because table … has a foreign key" (either way).
  const fkBound = (t: Table): boolean =>
    t.foreignKeys.length > 0 ||
    Object.values(actual.tables).some((o) => o.foreignKeys.some((fk) => fk.refTable === t.id));
  const rewrite = (t: Table, step: Extract<Step, { kind: 'set_access_method' }>): void => {
    // Neither side columnar, on a table of the coordinator alone: PostgreSQL's own ALTER TABLE.
    if (step.from !== 'columnar' && step.accessMethod !== 'columnar' && t.distribution.kind === 'local')
      steps.push({ ...step, kind: 'alter_table_access_method' });
    else if (!fkBound(t)) steps.push(step);
    else
      problems.push({
        code: 'access_method_with_foreign_keys',
        object: quoteQualified(step.table),
        message: `is ${step.from} in the cluster and ${step.accessMethod} in the manifest, but ${t.id} has foreign keys: alter_table_set_access_method refuses it (drop them first; columnar tables cannot have any)`,
      });
  };
  for (const t of Object.values(desired.tables)) {
    const a = actual.tables[t.id];
    if (!a && !created.has(t.id)) continue;
    // A table declared without columns is described by the cluster: only what it names is compared.
    const owns = t.columns !== undefined;
    if (a && (owns || t.accessMethod !== undefined) && am(t) !== am(a))
      rewrite(a, { kind: 'set_access_method', table: t.qname, accessMethod: am(t), from: am(a) });
    const options = columnarOptionSteps(t, a, actual.columnarDefaults, opts.prune);
    steps.push(...options.steps);
    unmanaged.push(...options.unmanaged);
    if (
      a &&
      (owns || t.partitionBy !== undefined) &&
      !samePartitionKey(t.partitionBy, a.partitionBy, new Map((a.columns ?? []).map((c) => [c.name, c.type.base])))
    ) {
      problems.push({
        code: 'partitioning_changed',
        object: t.id,
        message: `is ${a.partitionBy ? `partitioned by ${a.partitionBy}` : 'not partitioned'} in the cluster and ${t.partitionBy ? `partitioned by ${t.partitionBy}` : 'not partitioned'} in the manifest; PostgreSQL cannot change this in place (create a new table and move the rows)`,
      });
      continue;
    }
    if (t.partitionBy === undefined) continue;
    const have = new Map((a?.partitions ?? []).map((p) => [idOf(partName(t, p)), p]));
    const types = new Map((a?.columns ?? []).map((c) => [c.name, c.type.base]));
    for (const p of t.partitions ?? []) {
      const ap = have.get(idOf(partName(t, p)));
      if (ap && !sameLevel(t, p, ap, types, problems)) continue;
      if (!ap) {
        const attach = attachPartition(desired, actual, t, p, problems);
        if (attach === undefined) {
          const tablespace = partitionTablespace(desired, actual, t, p);
          steps.push({ kind: 'create_partition', table: t.qname, partition: p, ...(tablespace ? { tablespace } : {}) });
          steps.push(...partitionParameterSteps(t, p, undefined));
          steps.push(...partitionColumnarSteps(t, p, undefined));
        } else if (attach !== 'refused') {
          steps.push(attach);
          attached.push(idOf({ schema: t.qname.schema, name: p.name }));
        }
        continue;
      }
      steps.push(...partitionParameterSteps(t, p, ap), ...foreignPartitionSteps(partName(t, p), p, ap, problems));
      const keyTypes = ap.of ? have.get(idOf(ap.of))?.partitionKeyTypes : a?.partitionKeyTypes;
      if (!sameBound(p.bound, ap.bound, keyTypes))
        problems.push({
          code: 'partition_bound_changed',
          object: quoteQualified(partName(t, p)),
          message: `is ${ap.bound} in the cluster and ${p.bound} in the manifest; changing a bound is not planned (detach the partition and attach it again by hand)`,
        });
      else if (am(ap) !== am(p) && a)
        rewrite(a, {
          kind: 'set_access_method',
          table: partName(t, p),
          accessMethod: am(p),
          from: am(ap),
          parent: t.qname,
        });
      steps.push(...partitionColumnarSteps(t, p, ap));
    }
    const tp = t.timePartitions;
    if (tp) steps.push(...timePartitionSteps(t, a, tp, opts.now));
    const declared = new Set((t.partitions ?? []).map((p) => idOf(partName(t, p))));
    const kept = new Set(a && tp ? timeParts(a).map((x) => x.p.name) : []);
    const dropped = new Set<string>();
    for (const ap of a?.partitions ?? []) {
      const id = idOf(partName(t, ap));
      if (declared.has(id) || kept.has(ap.name)) continue;
      dropped.add(id);
      // DROP TABLE of a partition drops its own partitions (listed after it): not dropped again.
      if (ap.of && dropped.has(idOf(ap.of))) continue;
      if (opts.prune)
        steps.push({
          kind: 'drop_partition',
          table: partitionParent(t, ap),
          partition: partName(t, ap),
          ...(ap.foreign ? { foreign: true } : {}),
        });
      else unmanaged.push(`partition ${quoteQualified(partName(t, ap))}`);
    }
  }
  return { steps, unmanaged, attached };

  /** A columnar partition's own options, as a columnar table's (`ap`: as the cluster has it). */
  function partitionColumnarSteps(t: Table, p: Partition, ap: Partition | undefined): Step[] {
    const as = (x: Partition): Parameters<typeof columnarOptionSteps>[0] => ({
      id: idOf(partName(t, x)),
      qname: partName(t, x),
      ...(x.accessMethod !== undefined ? { accessMethod: x.accessMethod } : {}),
      ...(x.columnarOptions !== undefined ? { columnarOptions: x.columnarOptions } : {}),
      ...(t.columns !== undefined ? { columns: t.columns } : {}),
    });
    const r = columnarOptionSteps(as(p), ap && as(ap), actual.columnarDefaults, opts.prune);
    unmanaged.push(...r.unmanaged);
    return r.steps;
  }
}

/**
 * Whether a declared partition is where the cluster has it: of the same table or partition, and
 * partitioned (or not) by the same key. Else a problem: PostgreSQL changes neither in place.
 */
function sameLevel(
  t: Table,
  p: Partition,
  ap: Partition,
  types: ReadonlyMap<string, string>,
  problems: DiffProblem[],
): boolean {
  const of = (x: Partition): string => quoteQualified(partitionParent(t, x));
  if (of(p) !== of(ap)) {
    problems.push({
      code: 'partition_parent_changed',
      object: quoteQualified(partName(t, p)),
      message: `is a partition of ${of(ap)} in the cluster and of ${of(p)} in the manifest; moving a partition is not planned (detach it and attach it again by hand)`,
    });
    return false;
  }
  if (!samePartitionKey(p.partitionBy, ap.partitionBy, types)) {
    const by = (x: Partition): string => (x.partitionBy ? `partitioned by ${x.partitionBy}` : 'not partitioned');
    problems.push({
      code: 'partitioning_changed',
      object: quoteQualified(partName(t, p)),
      message: `is ${by(ap)} in the cluster and ${by(p)} in the manifest; PostgreSQL cannot change this in place (create a new partition and move the rows)`,
    });
    return false;
  }
  return true;
}

/** A partition's own storage parameters: SET what the manifest gives, RESET what only the partition has. */
function partitionParameterSteps(t: Table, p: Partition, ap: Partition | undefined): Step[] {
  if (p.accessMethod === 'columnar') return [];
  const { set, reset } = parameterChanges(p.storageParameters ?? {}, ap?.storageParameters ?? {});
  return set.length === 0 && reset.length === 0
    ? []
    : [{ kind: 'alter_table_storage_parameters', table: partName(t, p), set, reset }];
}
