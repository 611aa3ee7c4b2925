// Tables with triggers, distributed or rewritten by Citus (checked on Citus 13.2):
// - create_distributed_table refuses a table with triggers ("cannot distribute relation … because
//   it has triggers"), and alter_distributed_table a group one of whose tables has them
//   ("triggers are not supported on distributed tables"), unless citus.enable_unsafe_triggers is
//   on: the trigger steps already set it; this marks the distribution steps that need it.
// - create_distributed_table / create_reference_table copy the table's rows into the shards, and
//   that copy fires the shards' triggers: a BEFORE INSERT trigger changes every row a second
//   time. The table's enabled triggers are paused for the copy and restored after.
import type { ClusterModel, SqlObject } from '../model/types.js';
import { quoteQualified } from '../sql/quote.js';
import { refId } from '../model/object-ref.js';
import { tableOf } from './step-spec.js';
import type { Step } from './steps.js';

const REWRITES: ReadonlySet<Step['kind']> = new Set([
  'distribute_table',
  'distribute_table_concurrently',
  'create_reference_table',
  'create_single_shard_table',
  'alter_distributed_table',
  'set_access_method',
]);
/** Steps whose copy of the rows fires the shards' triggers. */
const COPIES: ReadonlySet<Step['kind']> = new Set([
  'distribute_table',
  'create_reference_table',
  'create_single_shard_table',
]);

/** How a trigger is enabled, from the catalog's statements (a second statement only when not plain ENABLE). */
function restoreClause(o: SqlObject): string | undefined {
  const alter = o.create[1];
  if (alter === undefined) return 'ENABLE';
  if (/ DISABLE TRIGGER /.test(alter)) return undefined;
  return / ENABLE REPLICA TRIGGER /.test(alter) ? 'ENABLE REPLICA' : 'ENABLE ALWAYS';
}

/** The steps, marked where they distribute or rewrite a table with triggers. */
export function markUnsafeTriggers(steps: readonly Step[], actual: ClusterModel): Step[] {
  const byTable = new Map<string, SqlObject[]>();
  for (const o of Object.values(actual.objects)) {
    const id = o.kind === 'trigger' && o.parent !== undefined ? refId(o.parent, 'relation') : undefined;
    if (id === undefined) continue;
    byTable.set(id, [...(byTable.get(id) ?? []), o]);
  }
  if (byTable.size === 0) return [...steps];
  const groupOf = (id: string): string | undefined => {
    const d = actual.tables[id]?.distribution;
    return d?.kind === 'hash' ? d.group : undefined;
  };
  const rewritten = (s: Step, id: string): string[] => {
    if (s.kind !== 'alter_distributed_table' || !s.cascade) return [id];
    const g = groupOf(id);
    return g === undefined ? [id] : Object.keys(actual.tables).filter((t) => groupOf(t) === g);
  };
  return steps.map((s) => {
    const id = REWRITES.has(s.kind) ? tableOf(s) : undefined;
    if (id === undefined || !rewritten(s, id).some((t) => byTable.has(t))) return s;
    const table = actual.tables[id];
    const paused = (COPIES.has(s.kind) && table ? (byTable.get(id) ?? []) : []).flatMap((o) => {
      const restore = restoreClause(o);
      // The object is named table.trigger, the trigger part quoted as the catalog quotes it.
      return restore === undefined ? [] : [{ name: o.name.slice(id.length + 1), restore }];
    });
    const at = table ? `ALTER TABLE ${quoteQualified(table.qname)}` : '';
    return {
      ...s,
      unsafeTriggers: true,
      ...(paused.length > 0
        ? {
            pausedTriggers: {
              pause: paused.map((t) => `${at} DISABLE TRIGGER ${t.name}`),
              resume: paused.map((t) => `${at} ${t.restore} TRIGGER ${t.name}`),
            },
          }
        : {}),
    };
  });
}
