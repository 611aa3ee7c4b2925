// Whether ADD COLUMN rewrites the table. Since PostgreSQL 11 a new column's default is stored in
// the catalog and the rows stay as they are, unless the default is volatile: then it is computed
// for every row, and the table (on Citus every shard) is rewritten under ACCESS EXCLUSIVE. So
// does a stored generated column, and an identity or serial column (nextval is volatile). A
// default is volatile when it calls a volatile function (provolatile 'v'): one of PostgreSQL's
// (VOLATILE_BUILTINS), or a routine of the cluster's or the manifest's declared VOLATILE (the
// default when a definition says nothing), or one the plan cannot see the definition of.
import type { ClusterModel, Column } from '../../model/types.js';
import { parseRoutineSql } from '../../sql/routine-parse.js';
import { expressionCalls } from '../../objects/statement-parts.js';

/**
 * PostgreSQL 15's volatile functions a default may call (pg_proc.provolatile = 'v' in
 * pg_catalog, less those no default would: replication, backup, large objects, statistics),
 * and uuid-ossp's generators.
 */
const VOLATILE_BUILTINS: ReadonlySet<string> = new Set([
  'clock_timestamp',
  'currval',
  'current_query',
  'gen_random_uuid',
  'lastval',
  'nextval',
  'pg_current_wal_lsn',
  'pg_notify',
  'pg_sleep',
  'random',
  'set_config',
  'setseed',
  'setval',
  'timeofday',
  'txid_status',
  'uuid_generate_v1',
  'uuid_generate_v1mc',
  'uuid_generate_v4',
]);

/** Whether a routine named so is volatile: by the manifest's definition, else by the cluster's having it at all. */
function routineVolatile(
  call: { schema?: string; name: string },
  desired: ClusterModel,
  actual: ClusterModel,
): boolean | undefined {
  const named = (m: ClusterModel) =>
    Object.values(m.routines).filter(
      (r) => r.qname.name === call.name && (call.schema === undefined || r.qname.schema === call.schema),
    );
  const declared = named(desired);
  if (declared.length > 0)
    return declared.some((r) => {
      if (r.definition === undefined) return true;
      try {
        return parseRoutineSql(r.definition).volatility === 'volatile';
      } catch {
        return true;
      }
    });
  // In the cluster but not declared: its volatility is not read, so it is taken as volatile.
  return named(actual).length > 0 ? true : undefined;
}

/** Why adding column `c` rewrites its table (and every shard), or undefined when it does not. */
export function newColumnRewrite(c: Column, desired: ClusterModel, actual: ClusterModel): string | undefined {
  if (c.generated !== undefined) return 'a stored generated column is computed for every row';
  if (c.identity !== undefined) return 'an identity column takes a value from its sequence for every row';
  if (c.type.serial) return 'a serial column takes a value from its sequence for every row';
  if (c.default === undefined) return undefined;
  for (const call of expressionCalls(c.default)) {
    const builtin = (call.schema === undefined || call.schema === 'pg_catalog') && VOLATILE_BUILTINS.has(call.name);
    if (builtin || (call.schema !== 'pg_catalog' && routineVolatile(call, desired, actual)))
      return `its default calls ${call.schema !== undefined ? `${call.schema}.` : ''}${call.name}(), which is volatile: computed for every row`;
  }
  return undefined;
}
