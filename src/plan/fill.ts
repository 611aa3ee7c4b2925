// What the online column changes share (backfill.ts: a new column's volatile default; retype.ts:
// a column's type): a trigger that keeps the rows written during the change right, and the fill
// of the rows already there, after COMMIT, in batches of pages each committed.
// The fill walks each table (each shard, on Citus) by ctid, FILL_PAGES pages at a time (a TID
// range scan: each batch reads only its pages, however many rows the table holds), up to the
// size the table had when the fill began: a row written after the trigger was created is right
// already, wherever it lands. A batch that is interrupted is rolled back alone; the fill starts
// again from the first page and skips the rows already filled.
// Pure.
import { createHash } from 'node:crypto';
import {
  dollarTag,
  quoteIdent,
  quoteLiteral,
  quoteQualified,
  regclassLiteral,
  type QualifiedName,
} from '../sql/quote.js';
import { pinLocal } from './pinned-settings.js';
import { relationRef } from '../model/object-ref.js';
import type { ClusterModel, Column, Routine, SqlObject, Table } from '../model/types.js';
import { dict } from '../util/dict.js';

/** Pages per batch (per shard on Citus): 512 kB of the table's heap. */
export const FILL_PAGES = 64;

const SYNC_PREFIX = 'citus_migrate_sync_';

/** The name of the trigger, and of its function in the table's schema, that keeps a column in step during its change. */
export function syncName(table: QualifiedName, column: string): string {
  const h = createHash('sha256')
    .update(`${quoteQualified(table)}\u0000${column}`)
    .digest('hex');
  return `${SYNC_PREFIX}${h.slice(0, 12)}`;
}

/** The function `syncName` names, in the table's schema. */
export const syncFunction = (table: QualifiedName, column: string): QualifiedName => ({
  schema: table.schema,
  name: syncName(table, column),
});

/**
 * CREATE FUNCTION and CREATE TRIGGER of a sync trigger: `BEFORE <events> … FOR EACH ROW` running
 * `body` (PL/pgSQL statements, NEW in scope) under a pinned search_path; on Citus, created on
 * every shard (citus.enable_unsafe_triggers for the statement: Citus refuses it otherwise).
 */
export function createSyncSql(
  table: QualifiedName,
  column: string,
  events: string,
  body: string,
  searchPath: string,
  when?: string,
  pragma = '',
): string[] {
  const fn = syncFunction(table, column);
  const text = `\n${pragma}${pragma ? '\n' : ''}BEGIN\n  ${body}\n  RETURN NEW;\nEND\n`;
  const tag = dollarTag(text, 'sync');
  return [
    `CREATE FUNCTION ${quoteQualified(fn)}() RETURNS trigger LANGUAGE plpgsql SET search_path TO ${quoteLiteral(searchPath)} AS ${tag}${text}${tag}`,
    'SET LOCAL citus.enable_unsafe_triggers TO on',
    `CREATE TRIGGER ${quoteIdent(fn.name)} BEFORE ${events} ON ${quoteQualified(table)} FOR EACH ROW${when !== undefined ? ` WHEN (${when})` : ''} EXECUTE FUNCTION ${quoteQualified(fn)}()`,
    pinLocal('citus.enable_unsafe_triggers'),
  ];
}

/** DROP TRIGGER and DROP FUNCTION of a sync trigger (IF EXISTS: a fill an earlier version began had none). */
export function dropSyncSql(table: QualifiedName, column: string): string[] {
  const fn = syncFunction(table, column);
  return [
    'SET LOCAL citus.enable_unsafe_triggers TO on',
    `DROP TRIGGER IF EXISTS ${quoteIdent(fn.name)} ON ${quoteQualified(table)}`,
    pinLocal('citus.enable_unsafe_triggers'),
    `DROP FUNCTION IF EXISTS ${quoteQualified(fn)}()`,
  ];
}

const ROW_CODE = ['trigger', 'rule', 'row level security', 'policy'];

/**
 * Why a table's rows cannot be filled after COMMIT by an UPDATE in ctid batches as the rewrite it
 * stands for would fill them (undefined: they can): a ctid names a row only within one table (not
 * a partitioned one, nor a parent of others); the fill writes a hash-distributed table shard by
 * shard, a plain one in place; a columnar table takes no UPDATE; triggers and rules fire on the
 * UPDATE (an updated_at trigger would touch every row), row level security may hide rows from it.
 */
export function fillRefusal(t: Table, actual: ClusterModel): string | undefined {
  const kind = t.distribution.kind;
  if (t.partitionBy !== undefined) return 'it is partitioned (a ctid names a row only within one partition)';
  if (kind !== 'local' && kind !== 'hash')
    return `it is a ${kind.replace('_', '-')} table (the fill is made for plain and hash-distributed tables)`;
  if (t.accessMethod !== undefined && t.accessMethod !== 'heap') return `it is a ${t.accessMethod} table`;
  if (Object.values(actual.tables).some((x) => x.inherits?.includes(t.id)))
    return 'it is inherited (a ctid names a row only within one table)';
  const parent = relationRef(t.qname);
  const code = Object.values(actual.objects).find((o) => o.parent === parent && ROW_CODE.includes(o.kind));
  return code ? `it has ${code.id} (the fill is an UPDATE of every row)` : undefined;
}

/** Whether a column's values come from a sequence (serial, nextval…): Citus's shards would number apart. */
export const drawsFromSequence = (c: Column): boolean =>
  c.type.serial || (c.default !== undefined && /\b(nextval|currval|lastval|setval)\s*\(/i.test(c.default));

/** The model without the sync trigger and function of (table, column): the change's own, not the user's. */
export function withoutSync(actual: ClusterModel, table: QualifiedName, column: string): ClusterModel {
  const fn = syncFunction(table, column);
  const parent = relationRef(table);
  const objects = dict<SqlObject>();
  for (const [id, o] of Object.entries(actual.objects))
    if (!(o.kind === 'trigger' && o.parent === parent && o.name.includes(fn.name))) objects[id] = o;
  const routines = dict<Routine>();
  for (const [id, r] of Object.entries(actual.routines))
    if (r.qname.schema !== fn.schema || r.qname.name !== fn.name) routines[id] = r;
  return { ...actual, objects, routines };
}

/**
 * The statement that runs `UPDATE <table> SET <assign> WHERE <unfilled>` over the table's pages,
 * FILL_PAGES at a time, each batch committed: one DO block. `assign` and `unfilled` name only
 * the table's columns (they run on the workers' sessions, whose search_path is the database's).
 */
export function fillSql(table: QualifiedName, assign: string, unfilled: string, perShard: boolean): string {
  const qualified = quoteQualified(table);
  const tag = (body: string): string => dollarTag(body, 'fill');
  const lit = (s: string): string => `${dollarTag(s, 'c')}${s}${dollarTag(s, 'c')}`;
  const range = (shard: string): [string, string, string] => [
    `UPDATE ${shard} SET ${assign} WHERE ctid OPERATOR(pg_catalog.>=) '(`,
    `,0)'::pg_catalog.tid AND ctid OPERATOR(pg_catalog.<) '(`,
    `,0)'::pg_catalog.tid AND ${unfilled}`,
  ];
  const next = `p OPERATOR(pg_catalog.+) ${FILL_PAGES}`;
  if (perShard) {
    // Each shard's batch runs on its worker in a transaction of its own (run_command_on_shards
    // formats the command with the shard's name), one shard after the other (`parallel` false):
    // a batch holds its rows' locks until it commits, and all shards' batches at once, competing
    // for the workers' cores, held them long enough to stall the application's UPDATEs for
    // seconds (perf:disruption: 5.7 s at 2M rows, where the rewrite stalled it 3.8 s). shard_name() leaves a shard of public
    // unqualified, and the workers' sessions search "$user" first, where a schema named after
    // the applying role could hold a look-alike: qualified here.
    const shard = table.schema === 'public' ? 'public.%1$s' : '%1$s';
    const size = `SELECT pg_catalog.pg_relation_size(${table.schema === 'public' ? `('public.' OPERATOR(pg_catalog.||) %1$L)` : '%1$L'}::pg_catalog.regclass)`;
    const [a, b, c] = range(shard);
    const failed = `pg_catalog.string_agg(r.shardid::pg_catalog.text OPERATOR(pg_catalog.||) ': ' OPERATOR(pg_catalog.||) r.result, '; ') FILTER (WHERE NOT r.success)`;
    const raise = (what: string): string =>
      `IF failed IS NOT NULL THEN\n    RAISE EXCEPTION '${what} % failed on shards: %', ${quoteLiteral(qualified)}, failed;\n  END IF;`;
    const body = `
DECLARE
  failed pg_catalog.text;
  pages pg_catalog.int8;
  p pg_catalog.int8 := 0;
BEGIN
  -- run_command_on_shards names its own functions without a schema (array_agg, format…): a
  -- look-alike in public with a closer signature would win over pg_catalog's polymorphic one.
  PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
  SELECT pg_catalog.max(r.result::pg_catalog.int8) FILTER (WHERE r.success) OPERATOR(pg_catalog./) pg_catalog.current_setting('block_size')::pg_catalog.int8, ${failed}
    INTO pages, failed
    FROM pg_catalog.run_command_on_shards(${regclassLiteral(table)}, ${lit(size)}) r;
  ${raise('sizing')}
  WHILE p OPERATOR(pg_catalog.<=) pages LOOP
    SELECT ${failed} INTO failed
      FROM pg_catalog.run_command_on_shards(${regclassLiteral(table)}, ${lit(a)} OPERATOR(pg_catalog.||) p::pg_catalog.text OPERATOR(pg_catalog.||) ${lit(b)} OPERATOR(pg_catalog.||) (${next})::pg_catalog.text OPERATOR(pg_catalog.||) ${lit(c)}, false) r;
    ${raise('filling')}
    p := ${next};
  END LOOP;
END
`;
    return `DO ${tag(body)}${body}${tag(body)}`;
  }
  const at = (x: string): string => `pg_catalog.format('(%s,0)', ${x})::pg_catalog.tid`;
  const body = `
DECLARE
  pages pg_catalog.int8;
  p pg_catalog.int8 := 0;
BEGIN
  pages := pg_catalog.pg_relation_size(${regclassLiteral(table)}) OPERATOR(pg_catalog./) pg_catalog.current_setting('block_size')::pg_catalog.int8;
  WHILE p OPERATOR(pg_catalog.<=) pages LOOP
    UPDATE ${qualified} SET ${assign} WHERE ctid OPERATOR(pg_catalog.>=) ${at('p')} AND ctid OPERATOR(pg_catalog.<) ${at(next)} AND ${unfilled};
    COMMIT;
    p := ${next};
  END LOOP;
END
`;
  return `DO ${tag(body)}${body}${tag(body)}`;
}
